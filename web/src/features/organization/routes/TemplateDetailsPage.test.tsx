// Capture templates: the list and grid with 'Show archived' (anything but list or grid is the
// list), 'New Template' for owners and admins only; a template made, edited with its steps
// reordered, a server field error under its field; a member reads it and starts a folder (spec §5
// File name), which opens.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answer, makeTestStore, renderAt, serve, type ApiCall } from '../../../testing';
import { FILE_NAME_MESSAGES } from '../../../lib/validation/fileName';
import { apiFolderSummary, apiOrganization, apiTemplate } from '../testing/helpers';
import { CaptureTemplatesPage } from './CaptureTemplatesPage';
import { TemplateDetailsPage } from './TemplateDetailsPage';

afterEach(() => vi.unstubAllGlobals());

function open(at: string) {
  return renderAt(
    makeTestStore(),
    [
      { path: '/organization-capture-templates/:viewMode', element: <CaptureTemplatesPage /> },
      { path: '/template-details/:templateId', element: <TemplateDetailsPage /> },
      { path: '/organization-folder/:folderId', element: <p>Organization folder screen</p> },
    ],
    at,
  );
}

const writes = (calls: ApiCall[]) => calls.filter((c) => c.method !== 'GET').map((c) => ({ route: `${c.method} ${c.path}`, body: c.body }));

describe('the templates list', () => {
  it('lists templates, switches to the grid and shows archived ones; an owner gets New Template', async () => {
    const calls = serve({
      'GET accounts/organization/': apiOrganization('owner'),
      'GET organizations/capture-templates/': (call: ApiCall) =>
        call.search === '?archived=true' ? { templates: [apiTemplate({ id: 't-2', name: 'Old intake', archived: true })] } : { templates: [apiTemplate()] },
    });
    const { router } = open('/organization-capture-templates/list');
    const [row] = await screen.findAllByTestId('template');
    expect(within(row!).getByText('Parcel intake')).toBeInTheDocument();
    expect(within(row!).getByText('2 steps')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New Template' })).toHaveAttribute('href', '/template-details/new');
    const user = userEvent.setup();
    await user.click(screen.getByRole('link', { name: 'Grid' }));
    expect(router.state.location.pathname).toBe('/organization-capture-templates/grid');
    expect(await screen.findByRole('list', { name: 'Capture templates' })).toHaveAttribute('data-view', 'grid');
    await user.click(screen.getByRole('checkbox', { name: 'Show archived' }));
    expect(await screen.findByText('Old intake')).toBeInTheDocument();
    expect(screen.getByText('Archived')).toBeInTheDocument();
    expect(calls.filter((c) => c.path === 'organizations/capture-templates/').map((c) => c.search)).toEqual(['?archived=false', '?archived=true']);
    await user.click(screen.getByText('Old intake'));
    expect(router.state.location.pathname).toBe('/template-details/t-2');
  });

  it('redirects another view mode to the list, and gives a member no New Template', async () => {
    serve({ 'GET accounts/organization/': apiOrganization('member'), 'GET organizations/capture-templates/': { templates: [apiTemplate()] } });
    const { router } = open('/organization-capture-templates/table');
    await waitFor(() => expect(router.state.location.pathname).toBe('/organization-capture-templates/list'));
    expect(await screen.findByText('Parcel intake')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'New Template' })).toBeNull();
  });
});

describe('a template of an owner or admin', () => {
  it('is made with its steps and opened', async () => {
    const calls = serve({
      'GET accounts/organization/': apiOrganization('admin'),
      'POST organizations/capture-templates/create/': answer(201, apiTemplate({ id: 't-9', name: 'Move-out' })),
      'GET organizations/capture-templates/t-9/': apiTemplate({ id: 't-9', name: 'Move-out' }),
    });
    const { router } = open('/template-details/new');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Template name'), 'Move-out');
    await user.type(screen.getByLabelText('Step name'), 'Kitchen');
    await user.click(screen.getByRole('checkbox', { name: 'Video' }));
    await user.click(screen.getByRole('button', { name: 'Add Step' }));
    await user.type(screen.getAllByLabelText('Step name')[1]!, 'Bathroom');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/template-details/t-9'));
    expect(await screen.findByRole('heading', { name: 'Move-out' })).toBeInTheDocument();
    expect(writes(calls)).toEqual([
      {
        route: 'POST organizations/capture-templates/create/',
        body: {
          name: 'Move-out',
          description: '',
          steps: [
            { name: 'Kitchen', instructions: '', media_types: ['image', 'video'], min_files: 1, max_files: 5 },
            { name: 'Bathroom', instructions: '', media_types: ['image'], min_files: 1, max_files: 5 },
          ],
        },
      },
    ]);
  });

  it('checks the rules before saving', async () => {
    const calls = serve({ 'GET accounts/organization/': apiOrganization('owner') });
    open('/template-details/new');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Template name'), 'M');
    await user.click(screen.getByRole('checkbox', { name: 'Photo' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    // The short template name its minimum, the empty step name that it is required (spec §5).
    expect(await screen.findAllByText('Minimum 2 characters')).toHaveLength(1);
    expect(screen.getByText('This field is required')).toBeInTheDocument();
    expect(screen.getByText('Choose at least one kind of media')).toBeInTheDocument();
    expect(writes(calls)).toEqual([]);
  });

  it('is edited with its steps reordered, keeping their ids, and shows a server field error under its field', async () => {
    let saves = 0;
    const calls = serve({
      'GET accounts/organization/': apiOrganization('owner'),
      'GET organizations/capture-templates/t-1/': apiTemplate(),
      'PUT organizations/capture-templates/t-1/update/': () =>
        ++saves === 1
          ? answer(400, { errors: [{ message: 'A step with this name exists.', code: 'invalid', field: 'steps[0].name' }] })
          : apiTemplate({ updated_at: '2026-11-03T12:00:00Z' }),
    });
    open('/template-details/t-1');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Move step 2 up' }));
    const names = screen.getAllByLabelText('Step name');
    expect(names.map((n) => (n as HTMLInputElement).value)).toEqual(['Damage', 'Front of the parcel']);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('A step with this name exists.')).toBeInTheDocument();
    expect(screen.getAllByLabelText('Step name')[0]).toHaveAttribute('aria-invalid', 'true');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saves).toBe(2));
    const body = writes(calls)[0]?.body as { steps: { id?: string; name: string }[] };
    expect(body.steps.map((s) => [s.id, s.name])).toEqual([
      ['st-2', 'Damage'],
      ['st-1', 'Front of the parcel'],
    ]);
  });

  it('is archived', async () => {
    const calls = serve({
      'GET accounts/organization/': apiOrganization('owner'),
      'GET organizations/capture-templates/t-1/': apiTemplate(),
      'POST organizations/capture-templates/t-1/archive/': apiTemplate({ archived: true }),
    });
    open('/template-details/t-1');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Archive' }));
    await waitFor(() => expect(writes(calls)).toEqual([{ route: 'POST organizations/capture-templates/t-1/archive/', body: { archived: true } }]));
  });
});

describe('a template for a member', () => {
  it('is read only, and a folder is started from it with a valid name', async () => {
    const calls = serve({
      'GET accounts/organization/': apiOrganization('member'),
      'GET organizations/capture-templates/t-1/': apiTemplate(),
      'POST organizations/folders/create/': answer(201, { ...apiFolderSummary({ id: 'of-7' }), steps: [] }),
    });
    const { router } = open('/template-details/t-1');
    expect(await screen.findByRole('heading', { name: 'Parcel intake' })).toBeInTheDocument();
    expect(screen.getAllByTestId('template-step')).toHaveLength(2);
    expect(screen.getByText('Photo, Video · 0 to 3 files')).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Archive' })).toBeNull();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Start a Folder' }));
    const dialog = screen.getByRole('dialog', { name: 'Start a Folder' });
    await user.type(within(dialog).getByLabelText('Folder name'), 'Dock #3');
    await user.click(within(dialog).getByRole('button', { name: 'Start' }));
    expect(await within(dialog).findByText(FILE_NAME_MESSAGES.special)).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('Folder name'));
    await user.type(within(dialog).getByLabelText('Folder name'), 'Dock 3');
    await user.click(within(dialog).getByRole('button', { name: 'Start' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/organization-folder/of-7'));
    const created = writes(calls)[0];
    expect(created?.route).toBe('POST organizations/folders/create/');
    expect(created?.body).toMatchObject({ template_id: 't-1', name: 'Dock 3' });
  });
});
