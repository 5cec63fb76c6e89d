import { type DocumentNode, type FragmentDefinitionNode, Kind, type SelectionSetNode } from 'graphql';

// The spec's "field selection merging" validation (graphql-js OverlappingFieldsCanBeMergedRule) compares every pair
// of fields that share a response name, and the fields merged under them, level by level: repeating one field a few
// hundred times, or a few times at each of several levels, makes a 5,000-token document cost the event loop
// hundreds of milliseconds. This counts those comparisons first, cheaply and within a budget, so such a document is
// refused before the rule ever runs. Ordinary documents (the full introspection query included) need a few dozen.

/** How many pairs of same-named fields merging would compare, stopping early once past `budget`. */
export function fieldMergeComparisons(document: DocumentNode, budget: number): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  let comparisons = 0;
  // Each entry: the selection sets merged at one place (one operation, or the fields of one response name).
  const pending: SelectionSetNode[][] = [];
  for (const d of document.definitions) if (d.kind === Kind.OPERATION_DEFINITION) pending.push([d.selectionSet]);
  for (const f of fragments.values()) pending.push([f.selectionSet]);
  while (pending.length) {
    const groups = new Map<string, { count: number; sets: SelectionSetNode[] }>();
    const visitedFragments = new Set<string>();
    const sets = [...pending.pop()!];
    while (sets.length) {
      for (const selection of sets.pop()!.selections) {
        if (selection.kind === Kind.INLINE_FRAGMENT) sets.push(selection.selectionSet);
        else if (selection.kind === Kind.FRAGMENT_SPREAD) {
          const fragment = fragments.get(selection.name.value);
          // As the spec's CollectFields: a fragment counts once per place, however often it is spread there.
          if (fragment && !visitedFragments.has(fragment.name.value)) {
            visitedFragments.add(fragment.name.value);
            sets.push(fragment.selectionSet);
          }
        } else {
          const name = selection.alias?.value ?? selection.name.value;
          const group = groups.get(name) ?? { count: 0, sets: [] };
          comparisons += group.count;
          if (comparisons > budget) return comparisons;
          group.count++;
          if (selection.selectionSet) group.sets.push(selection.selectionSet);
          groups.set(name, group);
        }
      }
    }
    for (const group of groups.values()) if (group.sets.length) pending.push(group.sets);
  }
  return comparisons;
}
