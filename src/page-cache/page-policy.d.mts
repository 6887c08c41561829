export declare const GOOGLE_ISSUER_DEFAULT: string;
export declare function inlineScriptHashes(html: string): string[];
export declare function formActionSources(e: { GOOGLE_CLIENT_ID?: string; GOOGLE_ISSUER: string }): string[];
export declare function formActionSourcesOfEnvironment(environment?: Record<string, string | undefined>): string[];
export declare function hashedPagePolicy(html: string, formActions: readonly string[]): string;
export declare function noncePagePolicy(nonce: string, formActions: readonly string[], development?: boolean): string;
