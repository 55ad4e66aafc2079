/**
 * Scheduling for online re-planning (the Spark plugin's coordinator re-plans the residual matrix at
 * every step boundary and grants only the first step): {@link
 * io.wanshuffle.scheduler.online.GreedyFirstStep}, the fast fallback used when a re-plan exceeds
 * its time budget.
 */
package io.wanshuffle.scheduler.online;
