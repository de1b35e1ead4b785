import { useEffect, useState } from 'react';
import { Alert, Box, Button, Typography } from '@mui/material';
import { fishlog, problemText } from './api';

/** What a review photo needs: its id and, when known, its sizes (for the space it takes while it loads). */
interface Photo {
  id: string;
  width: number;
  height: number;
  thumbnailWidth?: number;
  thumbnailHeight?: number;
}

/**
 * A photo under review, read through the review endpoint with the moderator's token (an <img>
 * cannot send it): the thumbnail, or the display size once opened. The API decides who may see it.
 */
export function ReviewPhoto({ photo, label }: { photo: Photo; label: string }) {
  const [size, setSize] = useState<'thumbnail' | 'display'>('thumbnail');
  const [src, setSrc] = useState<string>();
  const [problem, setProblem] = useState<string>();
  useEffect(() => {
    let url: string | undefined;
    let gone = false;
    void fishlog.GET('/api/admin/photos/{id}/{size}', { params: { path: { id: photo.id, size } }, parseAs: 'blob' }).then(({ data, error }) => {
      if (gone) return;
      if (error || !(data instanceof Blob)) return setProblem(problemText(error ?? 'The photo could not be read'));
      url = URL.createObjectURL(data);
      setSrc(url);
    }, (error: unknown) => !gone && setProblem(problemText(error)));
    return () => {
      gone = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [photo.id, size]);
  if (problem) return <Alert severity="warning">{`${label}: ${problem}`}</Alert>;
  // Sizes known in advance reserve the space; a thumbnail of unknown size is drawn as it comes (at most 320 px wide).
  const [width, height] = size === 'thumbnail' ? [photo.thumbnailWidth, photo.thumbnailHeight] : [photo.width, photo.height];
  return (
    <Box component="figure" sx={{ m: 0 }}>
      <Button onClick={() => setSize(size === 'thumbnail' ? 'display' : 'thumbnail')} aria-label={`${label}: ${size === 'thumbnail' ? 'show full size' : 'show small'}`} sx={{ p: 0 }}>
        {src ? (
          <img src={src} alt={label} width={width} height={height} style={{ maxWidth: width ? '100%' : 320, height: 'auto', display: 'block' }} />
        ) : (
          <Box sx={{ width: width ?? 160, height: height ?? 120, bgcolor: 'grey.200' }} aria-busy="true" />
        )}
      </Button>
      <Typography component="figcaption" variant="caption">
        {label}
      </Typography>
    </Box>
  );
}
