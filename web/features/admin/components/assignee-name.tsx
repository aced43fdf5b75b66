/** Who works a row, as the lists show it; a quiet dash for nobody. */
export function AssigneeName({ name }: { name: string | null | undefined }) {
  if (!name) return <span className="text-slate-400">Unassigned</span>;
  return (
    <span className="truncate font-medium text-slate-700" title={`Assigned to ${name}`}>
      {name}
    </span>
  );
}
