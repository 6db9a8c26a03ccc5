import { CONVERSATION, contextCatalog, TRACES } from '../common';
import { onSession } from '../sessions';
import { RoutedRequestEvents } from './routed-request.events';

export const routedRequestCatalog = contextCatalog(
  { RoutedRequestEvents },
  {
    [RoutedRequestEvents.toolCallRouted]: onSession(RoutedRequestEvents.toolCallRouted, 'parent', ['routed-requests', TRACES], CONVERSATION),
    [RoutedRequestEvents.toolCallDenied]: onSession(RoutedRequestEvents.toolCallDenied, 'parent', ['routed-requests', TRACES], CONVERSATION),
    [RoutedRequestEvents.permissionDecided]: onSession(RoutedRequestEvents.permissionDecided, 'parent', ['routed-requests'], CONVERSATION),
    [RoutedRequestEvents.hookInvoked]: onSession(RoutedRequestEvents.hookInvoked, 'parent', ['routed-requests', TRACES], 'not shown'),
    [RoutedRequestEvents.userInputRequested]: onSession(RoutedRequestEvents.userInputRequested, 'parent', [TRACES], CONVERSATION),
    [RoutedRequestEvents.userInputAnswered]: onSession(RoutedRequestEvents.userInputAnswered, 'parent', ['routed-requests', TRACES], CONVERSATION),
  },
);
