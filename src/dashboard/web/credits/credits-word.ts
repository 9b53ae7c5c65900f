/** "1 credit", "10 credits". */
export const creditsWord = (n: number): string => `${n} credit${Math.abs(n) === 1 ? '' : 's'}`;
