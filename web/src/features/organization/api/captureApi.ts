//! The organization capture calls: capture templates (members read, owners and admins write),
//! organization folders made from a template, the review of a contribution, and the folder's
//! contribution links. Tags 'CaptureTemplate', 'OrganizationFolder' and 'ContributionLink'.
import { api } from '../../../lib/api/api';
import type {
  CaptureTemplate,
  ContributionLink,
  ContributionLinkRequest,
  CreateOrganizationFolderRequest,
  OrganizationFolder,
  OrganizationFolderSummary,
  OrganizationItem,
  TemplateRequest,
} from './types';

const q = encodeURIComponent;

const captureTags = api.enhanceEndpoints({ addTagTypes: ['CaptureTemplate', 'OrganizationFolder', 'ContributionLink'] });

export const captureApi = captureTags.injectEndpoints({
  endpoints: (build) => ({
    captureTemplates: build.query<CaptureTemplate[], { archived: boolean }>({
      query: ({ archived }) => ({ url: 'organizations/capture-templates/', params: { archived: String(archived) } }),
      transformResponse: (body: { templates: CaptureTemplate[] }) => body.templates,
      providesTags: (templates) => [
        { type: 'CaptureTemplate', id: 'LIST' },
        ...(templates ?? []).map((t) => ({ type: 'CaptureTemplate' as const, id: t.id })),
      ],
    }),
    captureTemplate: build.query<CaptureTemplate, string>({
      query: (id) => `organizations/capture-templates/${q(id)}/`,
      providesTags: (_r, _e, id) => [{ type: 'CaptureTemplate', id }],
    }),
    createCaptureTemplate: build.mutation<CaptureTemplate, TemplateRequest>({
      query: (body) => ({ url: 'organizations/capture-templates/create/', method: 'POST', body }),
      invalidatesTags: [{ type: 'CaptureTemplate', id: 'LIST' }],
    }),
    updateCaptureTemplate: build.mutation<CaptureTemplate, { id: string; body: TemplateRequest }>({
      query: ({ id, body }) => ({ url: `organizations/capture-templates/${q(id)}/update/`, method: 'PUT', body }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'CaptureTemplate', id }, { type: 'CaptureTemplate', id: 'LIST' }],
    }),
    archiveCaptureTemplate: build.mutation<CaptureTemplate, { id: string; archived: boolean }>({
      query: ({ id, archived }) => ({ url: `organizations/capture-templates/${q(id)}/archive/`, method: 'POST', body: { archived } }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'CaptureTemplate', id }, { type: 'CaptureTemplate', id: 'LIST' }],
    }),
    organizationFolders: build.query<OrganizationFolderSummary[], void>({
      query: () => 'organizations/folders/',
      transformResponse: (body: { folders: OrganizationFolderSummary[] }) => body.folders,
      providesTags: [{ type: 'OrganizationFolder', id: 'LIST' }],
    }),
    organizationFolder: build.query<OrganizationFolder, string>({
      query: (id) => `organizations/folders/${q(id)}/`,
      providesTags: (_r, _e, id) => [{ type: 'OrganizationFolder', id }],
    }),
    createOrganizationFolder: build.mutation<OrganizationFolder, CreateOrganizationFolderRequest>({
      query: (body) => ({ url: 'organizations/folders/create/', method: 'POST', body }),
      invalidatesTags: [{ type: 'OrganizationFolder', id: 'LIST' }],
    }),
    reviewItem: build.mutation<OrganizationItem, { itemId: string; folderId: string; decision: 'accepted' | 'declined' }>({
      query: ({ itemId, decision }) => ({ url: `organizations/items/${q(itemId)}/review/`, method: 'POST', body: { decision } }),
      invalidatesTags: (_r, _e, { folderId }) => [
        { type: 'OrganizationFolder', id: folderId },
        { type: 'OrganizationFolder', id: 'LIST' },
      ],
    }),
    contributionLinks: build.query<ContributionLink[], string>({
      query: (folderId) => ({ url: 'sharing/contribution-links/', params: { folder_id: folderId } }),
      transformResponse: (body: { links: ContributionLink[] }) => body.links,
      providesTags: (_r, _e, folderId) => [{ type: 'ContributionLink', id: folderId }],
    }),
    createContributionLink: build.mutation<ContributionLink, ContributionLinkRequest>({
      query: (body) => ({ url: 'sharing/contribution-links/create/', method: 'POST', body }),
      invalidatesTags: (_r, _e, { folder_id }) => [{ type: 'ContributionLink', id: folder_id }],
    }),
    revokeContributionLink: build.mutation<ContributionLink, { linkId: string; folderId: string }>({
      query: ({ linkId }) => ({ url: `sharing/contribution-links/${q(linkId)}/revoke/`, method: 'POST' }),
      invalidatesTags: (_r, _e, { folderId }) => [{ type: 'ContributionLink', id: folderId }],
    }),
  }),
});

export const {
  useCaptureTemplatesQuery,
  useCaptureTemplateQuery,
  useCreateCaptureTemplateMutation,
  useUpdateCaptureTemplateMutation,
  useArchiveCaptureTemplateMutation,
  useOrganizationFoldersQuery,
  useOrganizationFolderQuery,
  useCreateOrganizationFolderMutation,
  useReviewItemMutation,
  useContributionLinksQuery,
  useCreateContributionLinkMutation,
  useRevokeContributionLinkMutation,
} = captureApi;
