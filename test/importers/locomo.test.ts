import { describe, expect, it } from 'vitest';
import { TranscriptParseError } from '../../src/errors.js';
import { locomoImporter, locomoQuestions, parseEvidence } from '../../src/importers/locomo.js';
import { errorOf, fixture, message, readAll, tempFile } from './helpers.js';

describe('locomo importer', () => {
  it('yields a session per sample, sessions in numeric order with their date, turns labelled by dia_id', async () => {
    const { events, skipped } = await readAll(locomoImporter, fixture('locomo-sample.json'));
    expect(skipped).toEqual([]);
    expect(events).toEqual([
      { type: 'session', sessionId: 'conv-a', label: 'Ana & Ben' },
      message({ role: 'system', content: 'Session 1 — 4:10 pm on 5 June, 2023', label: 'session_1' }),
      message({ role: 'user', content: 'Ana: Guess what!', label: 'D1:1' }),
      message({
        role: 'user',
        content: 'Ana: I adopted a cat yesterday. [image: a photo of a grey cat on a sofa]',
        label: 'D1:2',
      }),
      message({ role: 'system', content: 'Session 2 — 8:00 pm on 20 June, 2023', label: 'session_2' }),
      message({ role: 'assistant', content: 'Ben: How is the cat?', label: 'D2:1' }),
      message({ role: 'system', content: 'Session 10 — 9:05 am on 1 July, 2023', label: 'session_10' }),
      message({ role: 'user', content: 'Ana: The kittens are two weeks old.', label: 'D10:1' }),
      message({ role: 'assistant', content: 'Ben: Three of them, right?', label: 'D10:2' }),
      { type: 'session', sessionId: 'conv-b', label: 'Cy & Di' },
      message({ role: 'system', content: 'Session 1', label: 'session_1' }),
      message({ role: 'assistant', content: 'Di: Hi Cy.', label: 'D1:1' }),
    ]);
  });

  it('reads questions: numeric answers as text, adversarial answers apart, malformed evidence skipped', async () => {
    expect(await locomoQuestions(fixture('locomo-sample.json'))).toEqual([
      {
        sampleId: 'conv-a',
        question: 'When did Ana adopt the cat?',
        answer: '4 June 2023',
        adversarialAnswer: undefined,
        category: 2,
        evidence: ['D1:2'],
      },
      {
        sampleId: 'conv-a',
        question: 'How many kittens?',
        answer: '3',
        adversarialAnswer: undefined,
        category: 1,
        evidence: ['D2:1', 'D10:2'],
      },
      {
        sampleId: 'conv-a',
        question: "What colour is Ana's bike?",
        answer: undefined,
        adversarialAnswer: 'red',
        category: 5,
        evidence: [],
      },
    ]);
    expect(parseEvidence(['D8:6; D9:17', 'D:11:26', 'D', 'D3:4,D3:5', 7])).toEqual(['D8:6', 'D9:17', 'D3:4', 'D3:5']);
  });

  it('names file, record path and field of bad samples and turns; skipInvalid skips them', async () => {
    const file = await tempFile(
      'bad.json',
      JSON.stringify([
        {
          sample_id: 's1',
          conversation: {
            speaker_a: 'A',
            speaker_b: 'B',
            session_1: [
              { speaker: 'A', dia_id: 'D1:1', text: 'hi' },
              { speaker: 'B', dia_id: 'D1:2' },
            ],
            session_2: 'oops',
          },
        },
        { sample_id: 's2' },
      ]),
    );
    const error = await errorOf(locomoImporter, file);
    expect(TranscriptParseError.isInstance(error)).toBe(true);
    expect(error.message).toContain(`${file}: [0].conversation.session_1[1]: field "text"`);
    const { events, skipped } = await readAll(locomoImporter, file, { skipInvalid: true });
    expect(events).toEqual([
      { type: 'session', sessionId: 's1', label: 'A & B' },
      message({ role: 'system', content: 'Session 1', label: 'session_1' }),
      message({ role: 'user', content: 'A: hi', label: 'D1:1' }),
    ]);
    expect(skipped.map((skip) => skip.details)).toEqual([
      { file, record: '[0].conversation.session_1[1]', field: 'text' },
      { file, record: '[0].conversation', field: 'session_2' },
      { file, record: '[1]', field: 'conversation' },
    ]);
    const questions = await tempFile(
      'qa.json',
      JSON.stringify([{ sample_id: 's', qa: [{ question: 'q?', category: 1, evidence: [] }] }]),
    );
    await expect(locomoQuestions(questions)).rejects.toThrow(`${questions}: [0].qa[0]: field "answer"`);
  });
});
