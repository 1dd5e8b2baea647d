//! The organization capture types (contract "Organization capture": templates, organization
//! folders, reviews, contribution links), written by hand in the contract's shapes until the
//! gateway's OpenAPI document has them (`npm run gen:api`). Responses are camelCase (baseQuery);
//! request bodies snake_case.
import type { Item } from '../../../lib/api/evidence';

export type MediaKind = 'image' | 'video' | 'audio';
export const MEDIA_KINDS: readonly MediaKind[] = ['image', 'video', 'audio'];

export interface TemplateStep {
  id: string;
  name: string;
  instructions: string;
  mediaTypes: MediaKind[];
  minFiles: number;
  maxFiles: number;
}

export interface CaptureTemplate {
  id: string;
  name: string;
  description: string;
  archived: boolean;
  steps: TemplateStep[];
  createdAt: string;
  updatedAt: string;
}

export interface TemplateStepRequest {
  /** A step that keeps its id keeps its files. */
  id?: string;
  name: string;
  instructions: string;
  media_types: MediaKind[];
  min_files: number;
  max_files: number;
}

export interface TemplateRequest {
  name: string;
  description: string;
  steps: TemplateStepRequest[];
}

export interface OrganizationFolderSummary {
  id: string;
  name: string;
  templateId: string;
  templateName: string;
  createdAt: string;
  storageExpiresAt?: string | null;
  expired: boolean;
  expireSoon: boolean;
  stepCount: number;
  stepsComplete: number;
  pendingCount: number;
  fileCount: number;
}

export type ReviewState = 'pending' | 'accepted' | 'declined';

/** An evidence item of an organization folder: who added it and, for a contribution, its review. */
export type OrganizationItem = Item & {
  stepId: string | null;
  /** null: captured by a participant. */
  reviewState: ReviewState | null;
  contributorEmail: string | null;
};

export interface FolderStep extends TemplateStep {
  /** Files that count toward the step: verified, and accepted when contributed. */
  fileCount: number;
  complete: boolean;
  items: OrganizationItem[];
}

export interface OrganizationFolder extends OrganizationFolderSummary {
  steps: FolderStep[];
}

export interface CreateOrganizationFolderRequest {
  template_id: string;
  name: string;
  client_id?: string;
}

export type LinkState = 'active' | 'expired' | 'revoked' | 'used_up';

export interface ContributionLink {
  id: string;
  folderId: string;
  url: string;
  channel: 'email' | 'sms';
  sentTo: string;
  expiresAt: string;
  maxSubmissions: number;
  submissions: number;
  state: LinkState;
  createdAt: string;
}

export interface ContributionLinkRequest {
  folder_id: string;
  email?: string;
  phone_number?: { country_code: string; national_number: string };
  expires_in_days: number;
  max_submissions: number;
}
