/**
 * What every kind's state table shares: its names, for logs and messages. Each kind declares its own states in its
 * folder (`kinds/<kind>/`).
 *
 * @module
 */

/** A state table's name lookup (2 -> `Succeeded`), built once from the SDK's own table. */
export function stateNamesOf<const States extends Readonly<Record<string, number>>>(states: States): (state: States[keyof States]) => keyof States {
  const names = new Map<number, keyof States>(Object.entries(states).map(([name, code]) => [code, name]));
  return (state) => names.get(state)!;
}
