import { generateText } from 'ai';
import type { LanguageModel } from 'ai';
import { verifySummary } from '../../compaction/verify.js';
import type { SummarizeRequest, SummarizeResult, Summarizer } from '../../summarizers/summarizer.js';
import type { Finding } from '../../types.js';
import { SUMMARY_INSTRUCTIONS, SUMMARY_PROMPT_VERSION, parseClaims, summaryPrompt } from './summary-prompt.js';

/** One attempt of the summarizer, reported to `onAttempt`. */
export interface SummaryAttempt {
  /** 1 for the first call, 2 for the retry. */
  readonly attempt: number;
  /** The parsed result. */
  readonly result: SummarizeResult;
  /** What verification found (empty when the summary passed). */
  readonly findings: readonly Finding[];
}

/** Options of {@link aiSdkSummarizer}. */
export interface AiSdkSummarizerOptions {
  /** Name recorded on every record (default `ai-sdk:PROVIDER/MODEL`). */
  readonly name?: string | undefined;
  /** Output token limit (default: twice the summary budget, at least 256). */
  readonly maxOutputTokens?: number | undefined;
  /** Sampling temperature (default 0). */
  readonly temperature?: number | undefined;
  /** Retries of failed API calls, passed to `generateText` (default 2). Not the verification retry. */
  readonly maxRetries?: number | undefined;
  /** Longest unit text shown to the model, in characters (default 6000). */
  readonly maxUnitCharacters?: number | undefined;
  /** Called after each attempt: the first, and the one retry when the first failed verification. */
  readonly onAttempt?: ((attempt: SummaryAttempt) => void) | undefined;
}

function modelName(model: LanguageModel): string {
  return typeof model === 'string' ? model : `${model.provider}/${model.modelId}`;
}

/**
 * A summarizer backed by any AI SDK language model. The model is asked for short claims,
 * each citing the units it came from by number (mapped back to span ids), with handles
 * copied verbatim. The result is checked with `verifySummary`; when it invents or alters a
 * handle or leaves a claim uncited, the model is asked once more with the findings in the
 * prompt. The second result is returned either way: the core verifies it again and marks
 * the record lossy, with the findings kept on the record, if it is still wrong.
 */
export function aiSdkSummarizer(model: LanguageModel, options: AiSdkSummarizerOptions = {}): Summarizer {
  const maxUnitCharacters = options.maxUnitCharacters ?? 6000;
  const attempt = async (request: SummarizeRequest): Promise<SummarizeResult> => {
    const { text } = await generateText({
      model,
      system: SUMMARY_INSTRUCTIONS,
      prompt: summaryPrompt(request, { maxUnitCharacters }),
      temperature: options.temperature ?? 0,
      maxRetries: options.maxRetries ?? 2,
      maxOutputTokens: options.maxOutputTokens ?? Math.max(256, request.budgetTokens * 2),
    });
    return parseClaims(text, request);
  };
  return {
    identity: { name: options.name ?? `ai-sdk:${modelName(model)}`, version: SUMMARY_PROMPT_VERSION },
    async summarize(request) {
      const first = await attempt(request);
      const findings = verifySummary(first, request.units, request.handles);
      options.onAttempt?.({ attempt: 1, result: first, findings });
      if (findings.length === 0) return first;
      const previousFindings = [...(request.previousFindings ?? []), ...findings.map((finding) => finding.message)];
      const second = await attempt({ ...request, previousFindings });
      options.onAttempt?.({
        attempt: 2,
        result: second,
        findings: verifySummary(second, request.units, request.handles),
      });
      return second;
    },
  };
}
