#!/bin/sh
# Paddock's .deb after-remove script (dpkg's postrm; electron-builder.yml, deb.afterRemove): takes away what
# after-install.sh added, the command on the PATH and the AppArmor profile (unloaded first, so it is not left in the
# kernel until the next boot). electron-builder fills in the dollar-brace names when it packs. On an upgrade dpkg
# runs it with "upgrade" before the new version's after-install, which replaces both: nothing to do then. Nothing
# here fails the removal.

case "$1" in
  upgrade | failed-upgrade | abort-upgrade) exit 0 ;;
esac

app='/opt/${sanitizedProductName}/${executable}'
command_link='/usr/bin/${executable}'
profile_target='/etc/apparmor.d/${executable}'

if command -v update-alternatives >/dev/null 2>&1; then
  # Removes the link too when this was its only alternative.
  update-alternatives --remove '${executable}' "$app" >/dev/null 2>&1 || true
fi
if [ -L "$command_link" ] && [ "$(readlink "$command_link")" = "$app" ]; then
  rm -f "$command_link"
fi

if [ -f "$profile_target" ]; then
  in_chroot=no
  if command -v ischroot >/dev/null 2>&1 && ischroot; then in_chroot=yes; fi
  if [ "$in_chroot" = no ] && command -v apparmor_parser >/dev/null 2>&1 && command -v aa-enabled >/dev/null 2>&1 && aa-enabled --quiet; then
    apparmor_parser --remove "$profile_target" >/dev/null 2>&1 || true
  fi
  rm -f "$profile_target"
fi

exit 0
