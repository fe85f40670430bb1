import { writeCrossing, writeEffectiveCrossing } from './src/eval/race';
const o = new Float64Array(128);
const t0=Date.now(); writeCrossing(1,o); console.log('build ms', Date.now()-t0);
for (const x of [0,1,8,30,60,100,285]) { for (const f of [writeCrossing, writeEffectiveCrossing]) { f(x,o); let s=0,m=0; for(let k=0;k<128;k++){s+=o[k];m+=k*o[k];} console.log(x,s.toFixed(6),m.toFixed(3), (x/(49/6)).toFixed(3), Array.from(o.slice(0,8)).map(v=>v.toFixed(3)).join(' ')); } }
