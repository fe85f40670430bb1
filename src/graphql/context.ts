import { Request, Response } from 'express';
import { analysisCaller } from '../http/callers';
import { Services } from '../service/services';
import { AnalysisCaller } from '../service/analysis/service';

/** What every resolver sees: the services and the request's session headers. */
export interface GraphqlContext {
  readonly services: Services;
  /** The bearer token of `Authorization`, for session mutations. */
  readonly token?: string;
  /** Who pays for analysis fields, and whether the client is still there. */
  readonly caller: AnalysisCaller;
}

export function graphqlContext(services: Services, req: Request, res: Response): GraphqlContext {
  const header = req.get('authorization');
  const m = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return { services, token: m ? m[1] : header ? '' : undefined, caller: analysisCaller(req, res) };
}
