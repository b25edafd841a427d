#!/bin/sh
# Paddock's .deb after-install script (dpkg's postinst; electron-builder.yml, deb.afterInstall). electron-builder
# fills in the dollar-brace names when it packs (the app's executable "paddock" and folder "Paddock"), so the script
# uses no other braced variables. It does what electron-builder's own script does (the command on the PATH, the mode
# of Chromium's sandbox helper) and installs the AppArmor profile Ubuntu 23.10 and later need before the app, and
# the bubblewrap its agent workers start, may use user namespaces (build/linux/apparmor-profile.tpl). A step that
# cannot be done on this system says so and the installation goes on: nothing here fails it.

app='/opt/${sanitizedProductName}/${executable}'
command_link='/usr/bin/${executable}'
sandbox_helper='/opt/${sanitizedProductName}/chrome-sandbox'
profile_source='/opt/${sanitizedProductName}/resources/apparmor-profile'
profile_target='/etc/apparmor.d/${executable}'

# The command on the PATH.
if command -v update-alternatives >/dev/null 2>&1; then
  # A plain link left by an older install is replaced by the alternative.
  if [ -L "$command_link" ] && [ "$(readlink "$command_link")" != "/etc/alternatives/${executable}" ]; then
    rm -f "$command_link"
  fi
  update-alternatives --install "$command_link" '${executable}' "$app" 100 || ln -sf "$app" "$command_link"
else
  ln -sf "$app" "$command_link"
fi

# Live AppArmor operations make no sense while an image is built in a chroot; the profile file is still installed.
in_chroot=no
if command -v ischroot >/dev/null 2>&1 && ischroot; then in_chroot=yes; fi

# The AppArmor profile: only where AppArmor is installed (its folder and its parser). A dry run first: AppArmor
# before 4.0 (Ubuntu 22.04, Debian 12) does not know the profile's abi/4.0 or its userns rule, and those systems do
# not restrict user namespaces, so they need no profile.
profile_loaded=no
if [ -d /etc/apparmor.d ] && command -v apparmor_parser >/dev/null 2>&1 && [ -f "$profile_source" ]; then
  if apparmor_parser --skip-kernel-load --skip-cache "$profile_source" >/dev/null 2>&1; then
    if cp -f "$profile_source" "$profile_target"; then
      if [ "$in_chroot" = no ] && command -v aa-enabled >/dev/null 2>&1 && aa-enabled --quiet; then
        # As dh_apparmor loads a profile: replace any loaded copy, refresh the cache.
        if apparmor_parser --replace --write-cache --skip-read-cache "$profile_target"; then
          profile_loaded=yes
        else
          echo "Paddock: could not load the AppArmor profile $profile_target; it will load at the next boot." >&2
        fi
      fi
    else
      echo "Paddock: could not install the AppArmor profile $profile_target." >&2
    fi
  else
    echo "Paddock: this AppArmor does not accept the app's profile (it needs AppArmor 4); not installing it."
  fi
fi

# Chromium's setuid sandbox helper is needed only where unprivileged user namespaces do not work: a kernel without
# them, one that turns them off, or AppArmor restricting them with the app's profile not loaded. (This script runs
# as root, for whom `unshare --user` works even where AppArmor restricts everyone else.)
needs_setuid_helper=no
if [ ! -e /proc/self/ns/user ] || ! unshare --user true >/dev/null 2>&1; then
  needs_setuid_helper=yes
elif [ "$(sysctl -n kernel.unprivileged_userns_clone 2>/dev/null)" = 0 ]; then
  needs_setuid_helper=yes
elif [ "$(sysctl -n kernel.apparmor_restrict_unprivileged_userns 2>/dev/null)" = 1 ] && [ "$profile_loaded" = no ]; then
  needs_setuid_helper=yes
fi
if [ "$needs_setuid_helper" = yes ]; then
  chmod 4755 "$sandbox_helper" || true
else
  chmod 0755 "$sandbox_helper" || true
fi

if command -v update-mime-database >/dev/null 2>&1; then
  update-mime-database /usr/share/mime || true
fi
if command -v update-desktop-database >/dev/null 2>&1; then
  update-desktop-database /usr/share/applications || true
fi

exit 0
