/** Types of scripts/patch-next.mjs (plain JavaScript: postinstall runs it before anything is compiled). */
export declare const MENDS: readonly { from: string; to: string }[];
export declare function nextFiles(): string[];
export declare function mend(text: string): { state: 'mended' | 'already' | 'missing'; text: string };
