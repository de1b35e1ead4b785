import { scheduledSweep } from '../../core/jobs/jobs.js';

/** Every minute: removes the files of photos deleted with their record, and of uploads cut off before their row. */
export const MEDIA_SWEEP = scheduledSweep('photos.media-sweep', '* * * * *', 'Removes the stored files of deleted photos and of uploads that never committed.', 120);
