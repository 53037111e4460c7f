/** "1 page", "2 pages": a number with its noun in the right number (issue 30 found "1 pages"). */
export const count = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
