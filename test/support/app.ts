import { App, AppDeps, createApp } from '../../src/http/app';

/** The real app, in-process, for supertest (responses are checked against openapi.yaml in tests). */
export async function testApp(deps: AppDeps = {}): Promise<App> {
  return createApp({ validateResponses: true, ...deps });
}
