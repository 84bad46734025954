// How far the participant is: replies answered toward the study's minimum.
import { useTranslation } from "react-i18next";
interface TurnProgressProps {
  answered: number;
  minTurns: number;
  maxTurns: number;
}

export function TurnProgress({ answered, minTurns, maxTurns }: TurnProgressProps) {
  const { t } = useTranslation();
  const reached = answered >= minTurns;
  return (
    <div className="progress">
      <label htmlFor="turn-progress">
        {reached
          ? t("chat.progressReached", { count: answered, max: maxTurns })
          : t("chat.progress", { answered, min: minTurns })}
      </label>
      <progress id="turn-progress" max={minTurns} value={Math.min(answered, minTurns)} />
    </div>
  );
}
