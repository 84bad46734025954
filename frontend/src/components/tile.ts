// The class of a choice drawn as a tile (scale point, yes/no pill, feeling chip): its state is
// a class React sets, not a `:has(input:checked)` selector, so browsers without `:has()` show
// the selection too.
export function tile(kind: string, checked: boolean): string {
  return checked ? `${kind} is-checked` : kind;
}
