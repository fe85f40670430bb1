import { ReplayedMatch } from '../../engine/short/match-record';
import { AnalysisService } from '../analysis/service';
import { importMatchFile } from './files';
import { isLongMatchText, longMatchReader } from './long-analysis';
import { planDecisions } from './pipeline';
import { shortMatchReader } from './short-analysis';
import { MatchAnalysisOptions, MatchAnalysisPlan, PlanMatchAnalysis } from './types';

export { SKILL_THRESHOLDS, playEquity, ratingLabel } from './report';

/*
 * Whole-match analysis (docs/match-files.md, "Analysis"): the file's
 * family picks its reader — the long-nardy `.mat` dialect (its Variation
 * tag names a long-family preset), else backgammon's `.mat` or SGF — and
 * every family's decisions then go through the one pipeline and judge of
 * pipeline.ts. Every search goes through the public AnalysisService, so it
 * runs in the worker pool with its cost model and budgets.
 */

/**
 * Reads a match file, checks every move (400 INVALID_MATCH_FILE naming the
 * game and the move), and plans its analysis: the entries the report will
 * hold and the estimated network evaluations of the whole run.
 */
export const planMatchAnalysis: PlanMatchAnalysis = (file, options, analysis) => {
  if (file.format === 'mat' && isLongMatchText(file.text)) {
    return planDecisions(longMatchReader(file.text), options, analysis);
  }
  return planReplayedMatch(importMatchFile(file, { jacoby: options.jacoby }), options, analysis);
};

/** `planMatchAnalysis` of a backgammon match already read (a session's, or a file's). */
export function planReplayedMatch(match: ReplayedMatch, options: MatchAnalysisOptions, analysis: AnalysisService): MatchAnalysisPlan {
  return planDecisions(shortMatchReader(match), options, analysis);
}
