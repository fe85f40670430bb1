import { App, AppDeps, createApp } from '../../src/http/app';

/** The real app, in-process, for supertest. */
export async function testApp(deps: AppDeps = {}): Promise<App> {
  const silent = { error: () => undefined };
  return createApp({ log: silent, ...deps });
}
