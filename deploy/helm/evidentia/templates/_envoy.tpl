{{/*
evidentia.envoyConfig: deploy/local/envoy.yaml (files/envoy.yaml is a symlink to it) with the two
values marked `# chart:` replaced, and nothing else. Rendering fails when a marker is missing or
duplicated, so the local file cannot drift into something this substitution silently misses;
deploy/check-chart.sh also compares the rendered result with the local file. Argument: $.
*/}}
{{- define "evidentia.envoyConfig" -}}
{{- $src := .Files.Get "files/envoy.yaml" -}}
{{- if not $src -}}
{{- fail "files/envoy.yaml is empty or missing: it must be a symlink to deploy/local/envoy.yaml" -}}
{{- end -}}
{{- $listen := `(?m)^(\s*address: )127\.0\.0\.1(\s+# chart: listen-address)$` -}}
{{- $gateway := `(?m)^(\s*address: )127\.0\.0\.1(\s+# chart: gateway-address)$` -}}
{{- if ne (len (regexFindAll $listen $src -1)) 1 -}}
{{- fail "files/envoy.yaml must hold exactly one `address: 127.0.0.1  # chart: listen-address` line" -}}
{{- end -}}
{{- if ne (len (regexFindAll $gateway $src -1)) 1 -}}
{{- fail "files/envoy.yaml must hold exactly one `address: 127.0.0.1  # chart: gateway-address` line" -}}
{{- end -}}
{{- $src = regexReplaceAll $listen $src "${1}0.0.0.0${2}" -}}
{{- $src = regexReplaceAll $gateway $src (printf "${1}%s${2}" (include "evidentia.gatewayHeadlessHost" .)) -}}
{{- $src -}}
{{- end -}}
