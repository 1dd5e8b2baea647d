//! `/organization-capture-templates/:viewMode` (signed in): the organization's capture templates
//! as a list or a grid (`list` | `grid`; anything else is the list), with 'Show archived'. Owners
//! and admins get 'New Template'; everyone opens a template's details.
import { Link, Navigate, useParams, useSearchParams } from 'react-router';
import { BackControl } from '../../../components/BackControl';
import { InfoBanner } from '../../../components/InfoBanner';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { firstErrorMessage, SERVER_ERROR_MESSAGE } from '../../../lib/api/errors';
import type { OrganizationRole } from '../../../lib/organization/roles';
import { useCaptureTemplatesQuery } from '../api/captureApi';
import { OrganizationGate } from '../components/OrganizationGate';
import { NO_ARCHIVED_TEMPLATES, NO_TEMPLATES } from '../model/messages';
import { NEW_TEMPLATE, ORGANIZATION_CAPTURES, templatePath, templatesPath, TEMPLATE_VIEW_MODES, type TemplateViewMode } from '../model/paths';
import { canManageTemplates } from '../model/permissions';
import '../organization.css';

const isViewMode = (value: string | undefined): value is TemplateViewMode => (TEMPLATE_VIEW_MODES as readonly (string | undefined)[]).includes(value);

export function CaptureTemplatesPage() {
  const { viewMode } = useParams();
  const [params] = useSearchParams();
  if (!isViewMode(viewMode)) return <Navigate to={{ pathname: templatesPath('list'), search: params.toString() }} replace />;
  return <OrganizationGate title="Capture Templates">{({ role }) => <Templates mode={viewMode} role={role} />}</OrganizationGate>;
}

function Templates({ mode, role }: { mode: TemplateViewMode; role: OrganizationRole }) {
  const [params, setParams] = useSearchParams();
  const archived = params.get('archived') === 'true';
  const templates = useCaptureTemplatesQuery({ archived });
  const query = archived ? '?archived=true' : '';

  return (
    <main className="page org">
      <BackControl to={ORGANIZATION_CAPTURES} label="Organization" />
      <h1>Capture Templates</h1>
      {canManageTemplates(role) && (
        <Link className="btn btn--primary" to={templatePath(NEW_TEMPLATE)}>
          New Template
        </Link>
      )}
      <div className="org-toolbar">
        <label className="org-toolbar__check">
          <input
            type="checkbox"
            checked={archived}
            onChange={(e) => {
              const next = new URLSearchParams(params);
              if (e.target.checked) next.set('archived', 'true');
              else next.delete('archived');
              setParams(next, { replace: true });
            }}
          />{' '}
          Show archived
        </label>
        <div className="org-toggle" role="group" aria-label="View">
          {TEMPLATE_VIEW_MODES.map((m) => (
            <Link
              key={m}
              to={`${templatesPath(m)}${query}`}
              replace
              className={`org-toggle__option${m === mode ? ' org-toggle__option--active' : ''}`}
              aria-current={m === mode ? 'page' : undefined}
            >
              {m === 'list' ? 'List' : 'Grid'}
            </Link>
          ))}
        </div>
      </div>
      {templates.isLoading && <p className="muted">Loading…</p>}
      {templates.isError && (
        <>
          <InfoBanner type="error" title={firstErrorMessage(templates.error, SERVER_ERROR_MESSAGE)} />
          <PrimaryButton variant="secondary" onClick={() => void templates.refetch()}>
            Try Again
          </PrimaryButton>
        </>
      )}
      {templates.data && templates.data.length === 0 && <p className="muted">{archived ? NO_ARCHIVED_TEMPLATES : NO_TEMPLATES}</p>}
      {templates.data && templates.data.length > 0 && (
        <ul className={mode === 'grid' ? 'org-grid' : 'org-list'} aria-label="Capture templates" data-view={mode}>
          {templates.data.map((template) => (
            <li key={template.id} className={mode === 'grid' ? 'card org-tile' : 'org-row'} data-testid="template">
              <Link className="org-row__link" to={templatePath(template.id)}>
                <span className="org-row__body">
                  <span className="org-row__name">{template.name}</span>
                  {template.description && <span className="muted org-tile__description">{template.description}</span>}
                  <span className="muted">{template.steps.length === 1 ? '1 step' : `${template.steps.length} steps`}</span>
                </span>
                {template.archived && <span className="org-badge org-badge--link-expired">Archived</span>}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
