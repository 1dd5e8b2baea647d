//! Test helpers of the cards feature: a saved card as these tests name it. The harness itself is
//! `src/testing`.
import { apiCard as anyCard } from '../../../testing';

export const apiCard = (overrides: Record<string, unknown> = {}) => anyCard({ id: 'pm_1', fingerprint: 'fp_1', ...overrides });
