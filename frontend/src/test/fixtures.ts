// API payloads for tests, shaped like the server's (see annotations/participant_api/).
import type { AnnotationStep, Instrument, Session, Turn } from "../api/types";

const PANAS = [
  ["Proud", "positive"], ["Alert", "positive"], ["Inspired", "positive"], ["Determined", "positive"],
  ["Attentive", "positive"], ["Active", "positive"], ["Excited", "positive"], ["Strong", "positive"],
  ["Enthusiastic", "positive"], ["Interested", "positive"], ["Irritable", "negative"], ["Ashamed", "negative"],
  ["Nervous", "negative"], ["Jittery", "negative"], ["Distressed", "negative"], ["Afraid", "negative"],
  ["Upset", "negative"], ["Guilty", "negative"], ["Scared", "negative"], ["Hostile", "negative"],
] as const;

export const instrument: Instrument = {
  name: "test-instrument",
  language: "en",
  version: 1,
  intensity_scale: {
    min: 1,
    max: 7,
    labels: { "1": "very slightly", "2": "a little", "3": "somewhat", "4": "moderately", "5": "quite a bit", "6": "very much", "7": "extremely" },
  },
  panas_items: PANAS.map(([id, polarity]) => ({ id, label: id, polarity, description: `description of ${id.toLowerCase()}` })),
  q1_looking_for: {
    prompt: "Q1 prompt from the server",
    multi: true,
    options: [
      { id: "vent", label: "To vent", other: false },
      { id: "calm", label: "To calm down", other: false },
      { id: "other", label: "Something else", other: true },
    ],
  },
  q2_emotion_clarity: {
    prompt: "Q2 prompt from the server",
    multi: false,
    options: [
      { id: "clear", label: "Clearly", other: false },
      { id: "unclear", label: "Unclearly", other: false },
    ],
  },
  q3_model_fit: {
    prompt: "Q3 prompt from the server",
    multi: false,
    options: [
      { id: "very_well", label: "Very well", other: false },
      { id: "mixed", label: "Mixed", other: false },
    ],
  },
  q3_follow_up: { prompt: "What felt off? (server)", shown_when: ["mixed"] },
  four_branches: [
    { id: "perceiving", label: "Perceiving", text: "Branch perceiving text" },
    { id: "facilitating", label: "Facilitating", text: "Branch facilitating text" },
    { id: "understanding", label: "Understanding", text: "Branch understanding text" },
    { id: "managing", label: "Managing", text: "Branch managing text" },
  ],
  profile: [
    { id: "age", kind: "number", prompt: "Your age in years", required: true, min: 0, max: 120, options: [] },
    {
      id: "gender",
      kind: "single",
      prompt: "Your gender",
      required: false,
      min: null,
      max: null,
      options: [
        { id: "woman", label: "Woman", other: false, exclusive: false },
        { id: "other", label: "Something else", other: true, exclusive: false },
      ],
    },
    {
      id: "diagnoses",
      kind: "multi",
      prompt: "Diagnosed conditions",
      required: false,
      min: null,
      max: null,
      options: [
        { id: "none", label: "None of these", other: false, exclusive: true },
        { id: "anxiety", label: "Anxiety", other: false, exclusive: false },
        { id: "other", label: "Something else", other: true, exclusive: false },
        { id: "prefer_not_to_say", label: "Prefer not to say", other: false, exclusive: true },
      ],
    },
  ],
};

export function turn(overrides: Partial<Turn> = {}): Turn {
  return {
    number: 1,
    status: "done",
    user_message: "I feel nervous about work.",
    reply: "That sounds hard.",
    idempotency_key: null,
    error: null,
    annotation_submitted: false,
    ...overrides,
  };
}

export function session(overrides: Partial<Session> = {}): Session {
  return {
    step: "chat",
    preview: false,
    language: "en",
    study: {
      slug: "test-study",
      title: "Test study",
      consent_text: "Consent text from the server.",
      consent_version: "v1",
      topics: [
        { category: "work", subtopics: ["burnout"], other: false },
        { category: "something else", subtopics: [], other: true },
      ],
      min_turns: 2,
      max_turns: 3,
      conversations_per_participant: 1,
      message_max_chars: 4000,
      support_resources: "Call the helpline.",
      topic_labels: {},
      languages: ["en"],
      default_language: "en",
    },
    conversation: { number: 1, topic_category: "work", topic_subtopic: "", topic_other: "" },
    chat: { turns: [], answered: 0, can_send: true, can_finish: false },
    support: null,
    completion: null,
    screenout: null,
    comprehension: null,
    ...overrides,
  };
}

export function annotationStep(overrides: Partial<AnnotationStep> = {}): AnnotationStep {
  return {
    turn: 1,
    submitted: false,
    answers_saved: false,
    draft_key: "annotation:1",
    behaviour_questions: [
      { id: "B1", text: "Did the reply notice your feelings? (server)" },
      { id: "B14", text: "Did the reply judge you? (server)" },
    ],
    attention_check: null,
    comparison: {
      status: "ready",
      questions: [
        { id: "general", text: "Which reply would you rather have received? (server)" },
        { id: "PW8", text: "Which reply respected your choices? (server)" },
      ],
      responses: { A: "Improved reply text.", B: "That sounds hard." },
    },
    ...overrides,
  };
}
