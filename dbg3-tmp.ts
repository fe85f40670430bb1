import { computeMatchEquityTable } from './src/eval/cube/met';
const t = computeMatchEquityTable({ length: 5, gammonRate: 0.26, steps: 12 });
for (const [a,b,k] of [[1,1,'postCrawford'],[2,1,'postCrawford'],[1,2,'postCrawford'],[2,1,'crawford'],[2,2,'preCrawford']] as const) console.log(a,b,k,t.equity(a,b,k));
