// How far the participant is: replies answered toward the study's minimum.
interface TurnProgressProps {
  answered: number;
  minTurns: number;
  maxTurns: number;
}

export function TurnProgress({ answered, minTurns, maxTurns }: TurnProgressProps) {
  const reached = answered >= minTurns;
  return (
    <div className="progress">
      <label htmlFor="turn-progress">
        {reached
          ? `${answered} ${answered === 1 ? "reply" : "replies"} answered. You can finish now, or go on (up to ${maxTurns} messages).`
          : `${answered} of ${minTurns} replies answered`}
      </label>
      <progress id="turn-progress" max={minTurns} value={Math.min(answered, minTurns)} />
    </div>
  );
}
