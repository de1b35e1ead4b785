import type { ReactNode } from 'react';
import { useListContext } from 'react-admin';
import { Stack } from '@mui/material';

/** A list screen's page of records as a labelled list of cards (inside react-admin's <List>, which pages and filters through the API). */
export function CardList<T extends { id: string }>({ label, card }: { label: string; card: (record: T) => ReactNode }) {
  const { data } = useListContext<T>();
  return (
    <Stack spacing={2} sx={{ p: 2 }} component="ul" aria-label={label} style={{ listStyle: 'none', margin: 0 }}>
      {(data ?? []).map((record) => (
        <li key={record.id}>{card(record)}</li>
      ))}
    </Stack>
  );
}
