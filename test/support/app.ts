import { buildServices } from '../../src/app';
import { App, AppDeps, createApp } from '../../src/http/app';

/** The real app, in-process, for supertest (responses are checked against openapi.yaml in tests); in-memory services unless given. */
export async function testApp(deps: Partial<AppDeps> = {}): Promise<App> {
  return createApp({ validateResponses: true, ...deps, services: deps.services ?? buildServices() });
}
