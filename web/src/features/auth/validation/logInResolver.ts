//! The log-in form's resolver, loaded by the screen on its first validation (lib/validation/lazyResolver).
import { zodResolver } from '@hookform/resolvers/zod';
import { logInSchema } from './schemas';

export const logInResolver = zodResolver(logInSchema);
