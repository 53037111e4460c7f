/** A labelled progress bar (role="progressbar"), so assistive tech and tests can read its value. */
export const ProgressBar = ({ label, value, className = "" }: { label: string; value: number; className?: string }) => {
  const percent = Math.max(0, Math.min(100, Math.round(value)));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      className={`h-2 w-full overflow-hidden rounded-full bg-slate-200 ${className}`}
    >
      <div
        className="h-full rounded-full bg-indigo-600 transition-[width] duration-300"
        style={{ width: `${percent}%` }}
      />
    </div>
  );
};
