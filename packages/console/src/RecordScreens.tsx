import type { ReactElement, ReactNode } from 'react';
import { BooleanField, CreateButton, Datagrid, FunctionField, List, SearchInput, SelectInput, Show, Title, TopToolbar, useExpanded, usePermissions, useRecordContext, useRedirect, useResourceContext, useResourceDefinition } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { Box, Button, Link, Stack, Typography } from '@mui/material';
import { ActiveForm } from './action';
import { may, type MyAccess } from './access';
import { changes } from './dataProvider';
import { fishlog } from './api';
import { Facts, RecordForm, type Field, type Option } from './RecordForm';

/** A record as the screens read it: the API's admin view, with its id and whether it is active. */
export type Row = Record<string, unknown> & { id: string; isActive: boolean };

/**
 * One resource managed by administrators the same way (catalog and reference data, regulations):
 * a list with the API's filters (in the URL) and each record's usage statistics; a record's page
 * with its facts and usage, a change (JSON Merge Patch of the changed fields, with a reason), and
 * deactivation or reactivation with a reason (never deletion); a page to add one. The calls go
 * through the dataProvider's `changes` to the resource's paths.
 */
export interface RecordScreen {
  /** The record's name in notices, headings and labels. */
  noun: string;
  name: (record: Row) => string;
  filters: ReactElement[];
  /** The list's filter when none is in the URL (default: `{ status: 'Active' }`). */
  defaultFilter?: Record<string, unknown>;
  /** The list's columns after the name (react-admin fields). */
  columns: ReactElement[];
  /** The fields of a new record and of a change; none: the API adds but never changes them (a new version instead). */
  fields: readonly Field[];
  /** The permission that changes records, where the screen's own lets the caller only read them (Regulations.Edit). */
  manage?: string;
  /** Whether records can be changed (PATCH); default true. */
  editable?: boolean;
  /**
   * Where a record's facts and forms show: its own page (`show`: the API reads one by id), or
   * under its row in the list (`expand`: the API has no read of one).
   */
  page?: 'show' | 'expand';
  /** The record's facts, usage statistics included. */
  facts: (record: Row) => Array<readonly [string, ReactNode]>;
  /** Whether the API takes a reason with a new record, besides a change and (de)activation (all). */
  reasonOnCreate?: boolean;
  /** Shown above the list (e.g. a summary, an import). */
  header?: () => ReactNode;
}

/** Pieces of the screens' lists and facts. */
export const choices = (values: readonly string[]) => values.map((v) => ({ id: v, name: v }));
export const statusFilter = <SelectInput key="status" source="status" label="Status" choices={choices(['Active', 'Inactive', 'All'])} alwaysOn />;
export const search = (placeholder: string) => <SearchInput key="q" source="q" alwaysOn placeholder={placeholder} aria-label={placeholder} />;
export const column = (label: string, render: (record: Row) => ReactNode) => <FunctionField key={label} label={label} render={render} />;
/** A column of the record's usage statistics (`usage[key]`). */
export const usageColumn = (label: string, key: string) => column(label, (r) => (r.usage as Record<string, ReactNode>)[key]);
export const active = <BooleanField key="isActive" source="isActive" label="Active" sortable={false} />;
export const when = (iso: unknown) => (typeof iso === 'string' ? new Date(iso).toLocaleString() : 'never');
export const list = (values: unknown) => (Array.isArray(values) && values.length > 0 ? values.join(', ') : '—');
export const deactivated = (record: Row) => (record.isActive ? [] : [['Deactivated', when(record.deactivatedAt)] as const]);

/** Active species found by what was typed (GET /api/admin/species), for a species field. */
export const speciesMatching = async (q: string): Promise<Option[]> => {
  const { data } = await fishlog.GET('/api/admin/species', { params: { query: { status: 'Active', pageSize: 20, ...(q ? { q } : {}) } } });
  return (data ?? []).map((s) => ({ id: s.id, label: s.commonName }));
};

const capital = (text: string) => `${text[0]!.toUpperCase()}${text.slice(1)}`;

/**
 * A row's name as the button that shows or hides its facts and forms under it (react-admin's own
 * expand button is out of the tab order): keyboard users open a row with it.
 */
function ExpandName({ resource, record, name }: { resource: string; record: Row; name: string }) {
  const [expanded, toggle] = useExpanded(resource, record.id);
  return (
    <Button
      size="small"
      aria-expanded={expanded}
      onClick={(e) => (e.stopPropagation(), toggle())}
      sx={{ textTransform: 'none', textAlign: 'left', justifyContent: 'flex-start', p: 0.5 }}
    >
      {name}
    </Button>
  );
}

/** The list, page and new-record screens for the resources of `registry` (one lazily loaded chunk's). */
export function recordScreens(registry: Record<string, RecordScreen>) {
  function useScreen(): [string, RecordScreen] {
    const resource = useResourceContext() ?? '';
    const screen = registry[resource];
    if (!screen) throw new Error(`No screen for ${resource}`);
    return [resource, screen];
  }

  /** The list: the API's filters and pages in the URL, each row's usage; its name opens its page (a link, for the keyboard). */
  function RecordList() {
    const [resource, screen] = useScreen();
    const { hasCreate } = useResourceDefinition();
    const expand = screen.page === 'expand';
    return (
      <>
        {screen.header?.()}
        <List
          filters={screen.filters}
          filterDefaultValues={screen.defaultFilter ?? { status: 'Active' }}
          perPage={25}
          exporter={false}
          actions={<TopToolbar>{hasCreate ? <CreateButton label={`New ${screen.noun}`} /> : null}</TopToolbar>}
        >
          <Datagrid rowClick={expand ? false : 'show'} expand={expand ? <RecordPanel heading="h3" /> : undefined} bulkActionButtons={false}>
            <FunctionField
              label="Name"
              render={(r: Row) =>
                expand ? (
                  <ExpandName resource={resource} record={r} name={screen.name(r)} />
                ) : (
                  <Link component={RouterLink} to={`/${resource}/${encodeURIComponent(r.id)}/show`} onClick={(e) => e.stopPropagation()}>
                    {screen.name(r)}
                  </Link>
                )
              }
            />
            {screen.columns}
          </Datagrid>
        </List>
      </>
    );
  }

  /** A record's page (GET one by id). */
  function RecordShow() {
    const [, screen] = useScreen();
    return (
      <Show title={capital(screen.noun)} actions={false}>
        <RecordPanel heading="h1" />
      </Show>
    );
  }

  /** Facts and usage, the change form, deactivation or reactivation: on the record's page or under its row. */
  function RecordPanel({ heading }: { heading: 'h1' | 'h3' }) {
    const [resource, screen] = useScreen();
    const record = useRecordContext<Row>();
    const { permissions: access } = usePermissions<MyAccess>();
    if (!record) return null;
    const name = screen.name(record);
    const sub = heading === 'h1' ? 'h2' : 'h4';
    const manages = screen.manage === undefined || may(access, screen.manage);
    return (
      <Stack spacing={3} sx={{ p: 2 }} component="section" aria-label={name}>
        <Box>
          <Typography component={heading} variant={heading === 'h1' ? 'h5' : 'h6'}>
            {name}
            {record.isActive ? '' : ' (deactivated)'}
          </Typography>
          <Facts label={`About ${name}`} facts={screen.facts(record)} />
        </Box>
        {screen.editable === false || !manages ? null : (
          <Box>
            <Typography component={sub} variant="h6" gutterBottom>
              Change
            </Typography>
            <RecordForm
              key={String(record.updatedAt)}
              label={`Change ${screen.noun} ${name}`}
              fields={screen.fields}
              record={record}
              reason="required"
              submitLabel="Save"
              notice={`${name} changed`}
              submit={(body) => changes.update(resource, record.id, body)}
            />
          </Box>
        )}
        {manages ? (
          <Box>
            <Typography component={sub} variant="h6" gutterBottom>
              {record.isActive ? 'Deactivate' : 'Reactivate'}
            </Typography>
            <ActiveForm name={name} active={record.isActive} submit={(reason) => changes.setActive(resource, record.id, !record.isActive, reason)} />
          </Box>
        ) : null}
      </Stack>
    );
  }

  /** A new record (POST to the list's path); on success, its page (or the list, where records have none). */
  function RecordCreate() {
    const [resource, screen] = useScreen();
    const redirect = useRedirect();
    return (
      <Box component="section" sx={{ p: 2 }}>
        <Title title={`New ${screen.noun}`} />
        <Typography component="h1" variant="h5" gutterBottom>
          New {screen.noun}
        </Typography>
        <RecordForm
          label={`New ${screen.noun}`}
          fields={screen.fields}
          reason={screen.reasonOnCreate ? 'required' : 'none'}
          submitLabel="Add"
          notice={`${capital(screen.noun)} added`}
          submit={(body) => changes.create(resource, body)}
          done={(data) => (screen.page === 'expand' ? redirect('list', resource) : redirect('show', resource, (data as Row).id))}
        />
      </Box>
    );
  }

  return { RecordList, RecordShow, RecordCreate };
}

export type { Field };
