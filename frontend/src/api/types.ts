// The participant API's shapes, named for the app. Every one comes from schema.d.ts, which
// openapi-typescript generates from the server's OpenAPI schema (`make api-types`; `make lint`
// fails when it is out of date), so a change on the server that the app does not follow is a
// type error here, not a surprise on a participant's phone. The server is the source of truth
// for every question's wording: these types carry the texts, the app only lays them out.
import type { components } from "./schema";

type Schemas = components["schemas"];

export type Step = Schemas["StepEnum"];
export type TopicOption = Schemas["TopicOption"];
export type Study = Schemas["StudyOutput"];
export type TurnStatus = Schemas["TurnStatusEnum"];
export type TurnError = Schemas["TurnError"];
export type Turn = Schemas["TurnOutput"];
export type ChatState = Schemas["ChatOutput"];
export type ExitCode = Schemas["ExitOutput"];
export type Support = Schemas["SupportOutput"];
export type ConversationInfo = Schemas["ConversationOutput"];
export type Session = Schemas["SessionOutput"];
export type StartResult = Schemas["StartOutput"];
export type Question = Schemas["QuestionOutput"];
export type ImprovedStatus = Schemas["ImprovedStatusEnum"];
export type Comparison = Schemas["ComparisonOutput"];
export type AnnotationStep = Schemas["AnnotationStepOutput"];
export type AttentionCheck = Schemas["AttentionCheckOutput"];
export type AttentionOption = Schemas["AttentionOptionEnum"];
export type ComprehensionCheck = Schemas["ComprehensionOutput"];
export type Scale = Schemas["ScaleOutput"];
export type PanasItem = Schemas["PanasItemOutput"];
export type Option = Schemas["OptionOutput"];
export type ChoiceQuestion = Schemas["ChoiceQuestionOutput"];
export type FollowUp = Schemas["FollowUpOutput"];
export type Branch = Schemas["BranchOutput"];
export type Instrument = Schemas["InstrumentOutput"];
export type ProfileQuestion = Schemas["ProfileQuestionOutput"];
export type ServerDraft = Schemas["DraftOutput"];

// The chat stream's events (the server's stream_events.py). The schema types each event's
// name and says its `data` line is JSON shaped by the component Stream<Name>Data (its
// contentSchema, which openapi-typescript does not follow): the app reads `data` parsed.
type StreamEventName = Schemas["ChatStreamEvent"]["event"];
type StreamDataOf<Name extends string> = `Stream${Capitalize<Name>}Data` extends infer Key extends keyof Schemas ? Schemas[Key] : never;
export type StreamEvent = { [Name in StreamEventName]: { event: Name; data: StreamDataOf<Name> } }[StreamEventName];
export type StreamingTurn = Schemas["StreamingTurn"];
export type StreamError = Schemas["StreamError"];

export type Answer = Schemas["ObservedEnum"] & Schemas["PreferredEnum"];
export type Winner = NonNullable<Schemas["AnnotationInput"]["pairwise"]>[string];
export type MoodTag = Schemas["MoodTagInput"];

/** What the app sends: the API's input with the fields the server defaults always filled. */
export type AnnotationPayload = Required<Schemas["AnnotationInput"]>;
export type ProfilePayload = Schemas["ProfileInput"];
export type PostSurveyPayload = Schemas["PostSurveyInput"];
export type ClientErrorReport = Required<Schemas["ClientErrorInput"]>;

/** The API's one error shape: {"error": {"code", "message", "field", ...extra}}. */
export interface ErrorBody {
  error: Schemas["ErrorDetail"] & { [extra: string]: unknown };
}
