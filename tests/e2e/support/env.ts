/** The staff token the end-to-end server is started with (playwright.config.ts), so staff tests can sign in. */
export const E2E_ADMIN_TOKEN = 'e2e-staff-token-7d41c2a9';
