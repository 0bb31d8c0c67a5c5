// The notifications area as app.ts serves it: its store, its routes, its schedule, what it tells people on
// other areas' signals (plan.ts), what it tells a person whose access ended (access-ended.ts), and the outbox kind that delivers each message (deliver.ts).
import { defineArea } from '../../area.ts';
import { tick as scheduleNotifications } from './schedule.ts';
import { tellAccessEnded } from './access-ended.ts';
import { notificationHandler } from './deliver.ts';
import { commentAdded, emailChanged, offboardingRefused, onCallSyncFailing, propagationFailed, requestCreated, requestDecided, reviewersAssigned, reviewsAdded } from './plan.ts';
import { NOTIFICATION_KIND } from './queue.ts';
import { breakGlassEnded, breakGlassReviewOverdue, breakGlassReviewed, breakGlassUsed } from './break-glass.ts';
import { createNotificationStore } from './store.ts';

declare module '../../context.ts' {
  interface Stores {
    notifications: ReturnType<typeof createNotificationStore>;
  }
}

export const notificationsArea = defineArea({
  name: 'notifications',
  stores: { notifications: createNotificationStore },
  jobs: [{ name: 'notification-schedule', everyMs: (config) => config.notifyIntervalMs, tick: scheduleNotifications }],
  // Who hears what (docs/notifications.md): each queues its messages in the announcing change's transaction.
  signals: {
    'requests.created': (ctx, n, now) => requestCreated(ctx, n.requestId, now),
    'requests.reviewed': (ctx, n, now) => reviewsAdded(ctx, n.requestId, now),
    'requests.decided': (ctx, n, now) => requestDecided(ctx, n.requestId, n.decision, n.actorId, now),
    'requests.commented': (ctx, n, now) => commentAdded(ctx, n.requestId, n.commentId, n.authorId, now),
    'connectors.push-failed': (ctx, n, now) => propagationFailed(ctx, n, now),
    'on-call.sync-failing': (ctx, n, now) => onCallSyncFailing(ctx, n, now),
    'uar-decisions.reviewers-assigned': (ctx, n, now) => reviewersAssigned(ctx, n.uarId, n.reviewerIds, n.actorId, now),
    'users.email-changed': (ctx, n, now) => emailChanged(ctx, n, now),
    'scim.offboarding-refused': (ctx, n, now) => offboardingRefused(ctx, n, now),
    'break-glass.used': (ctx, n, now) => breakGlassUsed(ctx, n.breakGlassId, now),
    'break-glass.ended': (ctx, n, now) => breakGlassEnded(ctx, n.breakGlassId, now),
    'break-glass.reviewed': (ctx, n, now) => breakGlassReviewed(ctx, n.breakGlassId, n.decision, n.reviewerId, now),
    'break-glass.review-overdue': (ctx, n, now) => breakGlassReviewOverdue(ctx, n.breakGlassId, n.step, now),
  },
  // A person whose own access ended (removed, revoked, expired, offboarded) is told, in the change's transaction.
  onAccessChange: tellAccessEnded,
  // Emails and Slack messages, delivered by the outbox.
  outbox: { [NOTIFICATION_KIND]: notificationHandler },
});
