{{/* Names, labels and images shared by every template. */}}

{{- define "evidentia.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Release-scoped prefix of every resource name; components append "-<component>". */}}
{{- define "evidentia.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "evidentia.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Selector labels of one component. Argument: dict "root" $ "component" name. */}}
{{- define "evidentia.selectorLabels" -}}
app.kubernetes.io/name: {{ include "evidentia.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{/* All labels of one component. Argument: dict "root" $ "component" name. */}}
{{- define "evidentia.labels" -}}
{{ include "evidentia.selectorLabels" . }}
app.kubernetes.io/part-of: evidentia
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ include "evidentia.chart" .root }}
{{- end -}}

{{/* Resource name of one component. Argument: dict "root" $ "component" name. */}}
{{- define "evidentia.componentName" -}}
{{- printf "%s-%s" (include "evidentia.fullname" .root) .component | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* registry/repository:tag. Argument: dict "root" $ "image" {registry?, repository, tag?}. */}}
{{- define "evidentia.image" -}}
{{- $registry := default .root.Values.image.registry .image.registry -}}
{{- $tag := default (default .root.Chart.AppVersion .root.Values.image.tag) .image.tag -}}
{{- if $registry -}}
{{- printf "%s/%s:%s" $registry .image.repository $tag -}}
{{- else -}}
{{- printf "%s:%s" .image.repository $tag -}}
{{- end -}}
{{- end -}}

{{/* The names of the five gRPC services, in a fixed order. */}}
{{- define "evidentia.grpcServices" -}}
{{- list "accounts" "payments" "evidence" "sharing" "referrals" | toJson -}}
{{- end -}}

{{/* The gateway's headless Service DNS name: Envoy resolves it to every ready gateway pod. */}}
{{- define "evidentia.gatewayHeadlessHost" -}}
{{- printf "%s-headless.%s.svc.%s" (include "evidentia.componentName" (dict "root" . "component" "gateway")) .Release.Namespace .Values.clusterDomain -}}
{{- end -}}

{{/*
A component's settings: `defaults` overlaid with the component's own block.
Argument: dict "root" $ "values" <component block>. Returns YAML.
*/}}
{{- define "evidentia.settings" -}}
{{- mergeOverwrite (deepCopy .root.Values.defaults) (deepCopy .values) | toYaml -}}
{{- end -}}
