/** The training data set and passes: the library is src/eval/neural/dataset.ts. */
export { Dataset, rankAgreement, shuffle, trainPass, trainRankPass, validate } from '../../src/eval/neural/dataset';
