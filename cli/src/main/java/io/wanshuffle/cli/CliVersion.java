package io.wanshuffle.cli;

import picocli.CommandLine.IVersionProvider;

/**
 * The version line of {@code wan-shuffle --version} and of each subcommand's {@code --version}: the
 * jar's {@code Implementation-Version} when the manifest has one, else the source version.
 */
public final class CliVersion implements IVersionProvider {
  /** Version of these sources. */
  static final String SOURCE_VERSION = "0.1.0";

  @Override
  public String[] getVersion() {
    String v = CliVersion.class.getPackage().getImplementationVersion();
    return new String[] {"wan-shuffle " + (v == null ? SOURCE_VERSION : v)};
  }
}
