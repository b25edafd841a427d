# AppArmor profile for Paddock, installed by its .deb (build/linux/after-install.sh) as
# /etc/apparmor.d/${executable}. Ubuntu 23.10 and later refuse unprivileged user namespaces to programs without a
# profile that allows them; Chromium's sandbox needs one, and so does bubblewrap, which Paddock's agent workers run
# to sandbox shell commands. This profile confines nothing (unconfined mode) and only allows user namespaces. The
# workers and the bwrap they start are children of this binary and stay under this profile, so bubblewrap works
# for Paddock without a profile for /usr/bin/bwrap itself, which would allow user namespaces to every program on
# the machine (docs/security.md, "Linux packages and AppArmor").
abi <abi/4.0>,
include <tunables/global>

profile ${executable} /opt/${sanitizedProductName}/${executable} flags=(unconfined) {
  userns,

  # Site-specific additions and overrides. See local/README for details.
  include if exists <local/${executable}>
}
