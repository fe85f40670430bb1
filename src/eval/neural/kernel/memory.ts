/**
 * The kernel's memory header (AssemblyScript, like forward.ts): the first
 * 128 bytes hold where each array starts, one u32 a slot, written by the
 * loader (../kernel.ts), which places every array; the kernel allocates
 * nothing.
 */
export enum Slot {
  rows,
  bias,
  sums,
  columns,
  outBias,
  inIndex,
  inValue,
  lastIndex,
  lastValue,
  out,
  table,
  entryAt,
  entryActive,
  boards,
  plays,
  /** One backgammon board (28 bytes) for `encodeShort`. */
  board,
  /** `encodeShort`'s scratch: both sides' checkers by own point (50 bytes). */
  sides,
  /** HIT_ROLLS of ../short-encoding.ts (25 i32). */
  hitRolls,
  /** ESCAPES of ../short-encoding.ts (4096 bytes). */
  escapes,
  /** `update`'s lists of the rows that changed: four of 2 × inputs entries, 24 bytes each. */
  changes,
}

/** Byte offset of an array (its header slot). */
@inline
export function at(slot: Slot): usize {
  return <usize>load<u32>(<usize>slot << 2);
}
