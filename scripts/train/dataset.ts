/** The training data set and passes: the library is src/eval/neural/dataset.ts. */
export { Dataset, shuffle, trainPass, validate } from '../../src/eval/neural/dataset';
