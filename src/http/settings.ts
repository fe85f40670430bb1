import { Config } from '../config';
import { AppDeps } from './app';

/** The settings of the REST and GraphQL transports that come from the configuration. */
export function transportSettings(config: Config): Pick<AppDeps, 'bodyLimit' | 'corsOrigins' | 'trustProxy' | 'rateLimit' | 'graphqlLimits' | 'apiKeys' | 'metricsToken'> {
  return {
    bodyLimit: config.bodyLimit,
    corsOrigins: config.corsOrigins,
    trustProxy: config.trustProxy,
    rateLimit: { max: config.rateLimitMax, windowSeconds: config.rateLimitWindowSeconds },
    graphqlLimits: {
      maxDepth: config.graphqlMaxDepth,
      maxAliases: config.graphqlMaxAliases,
      maxComplexity: config.graphqlMaxComplexity,
    },
    apiKeys: config.apiKeys,
    metricsToken: config.metricsToken,
  };
}
