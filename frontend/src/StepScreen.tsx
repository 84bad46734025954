// The screen for the session's step: the server decides the step, this only maps it.
import type { Session } from "./api/types";
import { Chat } from "./screens/Chat";
import { Comprehension } from "./screens/Comprehension";
import { Consent } from "./screens/Consent";
import { Complete, ScreenedOut, Withdrawn } from "./screens/Exit";
import { Panas } from "./screens/Panas";
import { PostSurvey } from "./screens/PostSurvey";
import { Profile } from "./screens/Profile";
import { Topic } from "./screens/Topic";

export function StepScreen({ session }: { session: Session }) {
  switch (session.step) {
    case "consent":
      return <Consent />;
    case "comprehension":
      return <Comprehension />;
    case "profile":
      return <Profile />;
    case "pre_panas":
      return <Panas key="pre" phase="pre" />;
    case "topic":
      return <Topic />;
    case "chat":
      return <Chat />;
    case "post_panas":
      return <Panas key="post" phase="post" />;
    case "post_survey":
      return <PostSurvey />;
    case "complete":
      return <Complete exit={session.completion} />;
    case "screened_out":
      return <ScreenedOut exit={session.screenout} />;
    case "withdrawn":
      return <Withdrawn />;
    default:
      // A step this build does not know (a newer server): the error boundary offers a reload.
      throw new Error(`Unknown step from the server: ${String(session.step satisfies never)}`);
  }
}
