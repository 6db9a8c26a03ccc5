import { useGraphqlMutation } from '../api/mutation';
import { CreateScheduleMutation, DeleteScheduleMutation, RunScheduleNowMutation, SetScheduleEnabledMutation, UpdateScheduleMutation } from './operations';

// Every write of the schedule pages, and the queries each makes stale. Saving or deleting leaves the
// page for another, which asks for what it shows.

/** The schedules' query keys: the list (each page of it) and one schedule (its detail and its editor's copy). */
export const scheduleKeys = {
  list: ['schedules', 'list'] as const,
  one: (scheduleId: string | number) => ['schedules', 'one', String(scheduleId)] as const,
};

/** Switched on or off from the list or from its page: both show whether it is. */
export const useSetScheduleEnabled = () =>
  useGraphqlMutation(SetScheduleEnabledMutation, { stale: ({ id }) => [scheduleKeys.list, scheduleKeys.one(id)] });
export const useRunScheduleNow = () => useGraphqlMutation(RunScheduleNowMutation, { stale: ({ id }) => [scheduleKeys.one(id)] });
export const useDeleteSchedule = () => useGraphqlMutation(DeleteScheduleMutation);
export const useCreateSchedule = () => useGraphqlMutation(CreateScheduleMutation);
export const useUpdateSchedule = () => useGraphqlMutation(UpdateScheduleMutation);
