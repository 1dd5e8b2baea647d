//! Where the recovery screens live; the log-in screen links there without loading them.
export const RECOVERY_PATHS = { username: '/recovery/username', password: '/recovery/password' } as const;
