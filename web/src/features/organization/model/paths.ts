//! The organization screens' addresses.
const q = encodeURIComponent;

export const PARTICIPANTS = '/organization-participants';
export const ORGANIZATION_CAPTURES = '/dashboard/organization-captures';
export const TEMPLATE_VIEW_MODES = ['list', 'grid'] as const;
export type TemplateViewMode = (typeof TEMPLATE_VIEW_MODES)[number];
export const templatesPath = (mode: TemplateViewMode = 'list') => `/organization-capture-templates/${mode}`;
export const NEW_TEMPLATE = 'new';
export const templatePath = (templateId: string) => `/template-details/${q(templateId)}`;
export const organizationFolderPath = (folderId: string) => `/organization-folder/${q(folderId)}`;
export const organizationEvidencePath = (folderId: string, stepId: string) => `/organization-evidence/${q(folderId)}/${q(stepId)}`;
