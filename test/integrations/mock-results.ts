import type { LanguageModelV3GenerateResult, LanguageModelV3Prompt } from '@ai-sdk/provider';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** A MockLanguageModelV3 result that answers with text. */
export function textResult(text: string): LanguageModelV3GenerateResult {
  return { content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
}

/** A MockLanguageModelV3 result that calls one tool. */
export function toolCallResult(toolName: string, toolCallId: string, input: unknown): LanguageModelV3GenerateResult {
  return {
    content: [{ type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) }],
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage,
    warnings: [],
  };
}

/** All text of a V3 prompt, one string per message (system content, text parts, tool inputs and outputs). */
export function promptTexts(prompt: LanguageModelV3Prompt): string[] {
  return prompt.map((message) => {
    if (message.role === 'system') return message.content;
    return message.content
      .map((part) => {
        if (part.type === 'text' || part.type === 'reasoning') return part.text;
        if (part.type === 'tool-call') return JSON.stringify(part.input);
        if (part.type === 'tool-result')
          return part.output.type === 'text' ? part.output.value : JSON.stringify(part.output);
        return '';
      })
      .join('\n');
  });
}

/** The text of the user prompt given to a model call. */
export function userPromptText(prompt: LanguageModelV3Prompt): string {
  return prompt
    .filter((message) => message.role === 'user')
    .flatMap((message) => message.content.map((part) => (part.type === 'text' ? part.text : '')))
    .join('\n');
}
