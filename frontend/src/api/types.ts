// The participant API's shapes, as documented by its OpenAPI schema
// (annotations/participant_api/serializers.py). The server is the source of truth for every
// question's wording: these types carry the texts, the app only lays them out.

export type Step =
  | "consent"
  | "profile"
  | "pre_panas"
  | "topic"
  | "chat"
  | "post_panas"
  | "post_survey"
  | "complete"
  | "screened_out"
  | "withdrawn";

export interface TopicOption {
  category: string;
  subtopics?: string[];
}

export interface Study {
  slug: string;
  title: string;
  consent_text: string;
  consent_version: string;
  topics: TopicOption[];
  min_turns: number;
  max_turns: number;
  conversations_per_participant: number;
  message_max_chars: number;
  support_resources: string;
}

export type TurnStatus = "pending" | "streaming" | "done" | "failed";

export interface TurnError {
  reason: string;
  message: string;
  retryable: boolean;
}

export interface Turn {
  number: number;
  status: TurnStatus;
  user_message: string;
  reply: string;
  error: TurnError | null;
  annotation_submitted: boolean;
}

export interface ChatState {
  turns: Turn[];
  answered: number;
  can_send: boolean;
  can_finish: boolean;
}

export interface ExitCode {
  code: string;
  redirect_url: string | null;
}

export interface Support {
  resources: string;
}

export interface ConversationInfo {
  number: number;
  topic_category: string;
  topic_subtopic: string;
}

export interface Session {
  step: Step;
  preview: boolean;
  study: Study;
  conversation: ConversationInfo | null;
  chat: ChatState | null;
  support: Support | null;
  completion: ExitCode | null;
  screenout: ExitCode | null;
}

export interface StartResult {
  token: string;
  session: Session;
}

export interface Question {
  id: string;
  text: string;
}

export type ImprovedStatus = "pending" | "ready" | "failed" | "unavailable";

export interface Comparison {
  status: ImprovedStatus;
  questions: Question[];
  responses: { A: string; B: string } | null;
}

export interface AnnotationStep {
  turn: number;
  submitted: boolean;
  draft_key: string;
  behaviour_questions: Question[];
  comparison: Comparison;
}

export interface Scale {
  min: number;
  max: number;
  labels: Record<string, string>;
}

export interface PanasItem {
  id: string;
  polarity: string;
  description: string;
}

export interface Option {
  id: string;
  label: string;
}

export interface ChoiceQuestion {
  prompt: string;
  multi: boolean;
  options: Option[];
}

export interface FollowUp {
  prompt: string;
  shown_when: string[];
}

export interface Branch {
  id: string;
  label: string;
  text: string;
}

export interface Instrument {
  name: string;
  version: number;
  intensity_scale: Scale;
  panas_items: PanasItem[];
  q1_looking_for: ChoiceQuestion;
  q2_emotion_clarity: ChoiceQuestion;
  q3_model_fit: ChoiceQuestion;
  q3_follow_up: FollowUp;
  four_branches: Branch[];
}

export type Answer = "yes" | "no" | "na";
export type Winner = "A" | "B" | null;

export interface MoodTag {
  emotion: string;
  intensity: number;
}

export interface AnnotationPayload {
  mood_tags: MoodTag[];
  behaviour: Record<string, { observed: Answer; preferred: Answer }>;
  edited_reply: string | null;
  pairwise: Record<string, Winner>;
  timings: Record<string, number>;
}

export interface ProfilePayload {
  age: number;
  traits: string[];
  goals: string[];
  diagnosis: string | null;
}

export interface PostSurveyPayload {
  looking_for: string[];
  emotion_clarity: string;
  model_fit: string;
  what_felt_off: string[];
  four_branch: Record<string, number>;
}

export interface ServerDraft {
  key: string;
  data: unknown;
  updated_at: string;
}

/** The API's one error shape: {"error": {"code", "message", "field", ...extra}}. */
export interface ErrorBody {
  error: { code: string; message: string; field: string | null; [extra: string]: unknown };
}
