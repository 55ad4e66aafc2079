package io.wanshuffle.it.job;

import java.util.List;

/**
 * What a driver run wrote back.
 *
 * @param appName application name
 * @param startupMs from driver start until every executor registered, ms
 * @param runs measured runs, in order
 */
public record JobResult(String appName, long startupMs, List<RunResult> runs) {}
