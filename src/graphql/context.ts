import { Request } from 'express';
import { Services } from '../http/services';

/** What every resolver sees: the services and the request's session headers. */
export interface GraphqlContext {
  readonly services: Services;
  /** The bearer token of `Authorization`, for session mutations. */
  readonly token?: string;
}

export function graphqlContext(services: Services, req: Request): GraphqlContext {
  const header = req.get('authorization');
  const m = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return { services, token: m ? m[1] : header ? '' : undefined };
}
