{{/*
Environment of the Rust workloads. Names are the ones the binaries read (see the contract in
docs/deployment.md). Secrets only ever appear as secretKeyRef. Kubernetes expands $(VAR) in a
value from variables defined earlier in the list, which is how passwords join the URLs built
from the address values without the chart seeing them.
*/}}

{{- define "evidentia.secretEnv" -}}
- name: {{ .name }}
  valueFrom:
    secretKeyRef:
      name: {{ required (printf "a Secret name is required for %s" .name) .secret | quote }}
      key: {{ required (printf "a Secret key is required for %s" .name) .key | quote }}
{{- end -}}

{{/* AMQP_URL (with AMQP_PASSWORD before it when a password Secret is set). Argument: $. */}}
{{- define "evidentia.env.amqp" -}}
{{- $v := .Values -}}
{{- $amqpAuth := $v.rabbitmq.username -}}
{{- if $v.rabbitmq.passwordSecret.name }}
{{ include "evidentia.secretEnv" (dict "name" "AMQP_PASSWORD" "secret" $v.rabbitmq.passwordSecret.name "key" $v.rabbitmq.passwordSecret.key) }}
{{- $amqpAuth = printf "%s:$(AMQP_PASSWORD)" $v.rabbitmq.username -}}
{{- end }}
- name: AMQP_URL
  value: {{ printf "%s://%s@%s:%d/%s" (ternary "amqps" "amqp" $v.rabbitmq.tls) $amqpAuth $v.rabbitmq.host (int $v.rabbitmq.port) (urlquery $v.rabbitmq.vhost) | quote }}
- name: AMQP_EXCHANGE
  value: {{ $v.rabbitmq.exchange | quote }}
- name: AMQP_QUEUE_TYPE
  value: {{ $v.rabbitmq.queueType | quote }}
{{- end -}}

{{/* REDIS_URL (with REDIS_PASSWORD before it when a password Secret is set). Argument: $. */}}
{{- define "evidentia.env.redis" -}}
{{- $v := .Values -}}
{{- $redisAuth := "" -}}
{{- if $v.redis.passwordSecret.name }}
{{ include "evidentia.secretEnv" (dict "name" "REDIS_PASSWORD" "secret" $v.redis.passwordSecret.name "key" $v.redis.passwordSecret.key) }}
{{- $redisAuth = printf "%s:$(REDIS_PASSWORD)@" $v.redis.username -}}
{{- else if $v.redis.username -}}
{{- $redisAuth = printf "%s@" $v.redis.username -}}
{{- end }}
- name: REDIS_URL
  value: {{ printf "%s://%s%s:%d/%d" (ternary "rediss" "redis" $v.redis.tls) $redisAuth $v.redis.host (int $v.redis.port) (int $v.redis.database) | quote }}
{{- end -}}

{{/* Logging and OpenTelemetry. Argument: dict "root" $ "component" name "settings" s. */}}
{{- define "evidentia.env.telemetry" -}}
{{- $t := .root.Values.telemetry -}}
- name: LOG_FORMAT
  value: json
- name: RUST_LOG
  value: {{ .settings.rustLog | quote }}
- name: K8S_POD_NAME
  valueFrom:
    fieldRef:
      fieldPath: metadata.name
- name: K8S_NAMESPACE
  valueFrom:
    fieldRef:
      fieldPath: metadata.namespace
- name: OTEL_SERVICE_NAME
  value: {{ .component | quote }}
- name: OTEL_RESOURCE_ATTRIBUTES
  value: {{ printf "service.namespace=evidentia,service.version=%s,k8s.namespace.name=$(K8S_NAMESPACE),k8s.pod.name=$(K8S_POD_NAME)%s" .root.Chart.AppVersion (ternary (printf ",%s" $t.resourceAttributes) "" (ne $t.resourceAttributes "")) | quote }}
{{- if $t.otlpEndpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ $t.otlpEndpoint | quote }}
- name: OTEL_EXPORTER_OTLP_PROTOCOL
  value: {{ $t.otlpProtocol | quote }}
{{- end }}
{{- range $name, $value := $t.env }}
- name: {{ $name }}
  value: {{ $value | toString | quote }}
{{- end }}
{{- end -}}

{{/* SMTP, the SMS provider and the public address of links in messages (accounts, sharing, referrals). Argument: $. */}}
{{- define "evidentia.env.messages" -}}
{{- $v := .Values -}}
{{ include "evidentia.secretEnv" (dict "name" "SMTP_URL" "secret" $v.smtp.existingSecret "key" $v.smtp.urlKey) }}
- name: MAIL_FROM
  value: {{ $v.smtp.mailFrom | quote }}
- name: PUBLIC_URL
  value: {{ $v.publicUrl | quote }}
- name: SMS_PROVIDER
  value: {{ $v.sms.provider | quote }}
{{- if eq $v.sms.provider "http" }}
- name: SMS_HTTP_URL
  value: {{ $v.sms.httpUrl | quote }}
- name: SMS_HTTP_USERNAME
  value: {{ $v.sms.httpUsername | quote }}
- name: SMS_FROM
  value: {{ $v.sms.from | quote }}
{{ include "evidentia.secretEnv" (dict "name" "SMS_HTTP_PASSWORD" "secret" $v.sms.existingSecret "key" $v.sms.httpPasswordKey) }}
{{- else }}
- name: SMS_DIR
  value: /tmp/sms
{{- end }}
{{- end -}}

{{/* The media bucket (evidence, and sharing's copies under their own prefix). Argument: $. */}}
{{- define "evidentia.env.s3" -}}
{{- $v := .Values -}}
- name: S3_ENDPOINT
  value: {{ $v.s3.endpoint | quote }}
- name: S3_REGION
  value: {{ $v.s3.region | quote }}
- name: S3_BUCKET
  value: {{ $v.s3.bucket | quote }}
{{ include "evidentia.secretEnv" (dict "name" "S3_ACCESS_KEY_ID" "secret" $v.s3.existingSecret "key" $v.s3.accessKeyIdKey) }}
{{ include "evidentia.secretEnv" (dict "name" "S3_SECRET_ACCESS_KEY" "secret" $v.s3.existingSecret "key" $v.s3.secretAccessKeyKey) }}
{{- end -}}

{{/* Everything one gRPC service reads. Argument: dict "root" $ "component" name "settings" s. */}}
{{- define "evidentia.env.grpc" -}}
{{- $v := .root.Values -}}
- name: GRPC_LISTEN_ADDR
  value: {{ printf "0.0.0.0:%d" (int .settings.port) | quote }}
{{ include "evidentia.secretEnv" (dict "name" "DATABASE_URL" "secret" $v.postgresql.existingSecret "key" (index $v.postgresql.keys .component)) }}
- name: DATABASE_MAX_CONNECTIONS
  value: {{ .settings.databasePoolSize | default 10 | quote }}
{{ include "evidentia.env.amqp" .root | trim }}
{{ include "evidentia.env.redis" .root | trim }}
{{ include "evidentia.env.telemetry" . | trim }}
{{- if eq .component "accounts" }}
{{ include "evidentia.env.messages" .root | trim }}
- name: SUPPORT_EMAIL
  value: {{ $v.smtp.supportEmail | quote }}
{{ include "evidentia.secretEnv" (dict "name" "JWT_SECRET" "secret" $v.auth.existingSecret "key" $v.auth.jwtSecretKey) }}
- name: ACCESS_TOKEN_TTL_SECONDS
  value: {{ int64 $v.auth.accessTokenTtlSeconds | toString | quote }}
- name: REFRESH_TOKEN_TTL_SECONDS
  value: {{ int64 $v.auth.refreshTokenTtlSeconds | toString | quote }}
- name: PASSWORD_TOKEN_TTL_SECONDS
  value: {{ int64 $v.auth.passwordTokenTtlSeconds | toString | quote }}
- name: ACCOUNT_RECOVERY_GRACE_SECONDS
  value: {{ int64 $v.accountPolicy.recoveryGraceSeconds | toString | quote }}
- name: ACCOUNT_PURGE_INTERVAL_SECONDS
  value: {{ int64 $v.accountPolicy.purgeIntervalSeconds | toString | quote }}
- name: ORGANIZATION_INVITE_TTL_SECONDS
  value: {{ int64 $v.accountPolicy.organizationInviteTtlSeconds | toString | quote }}
{{- else if eq .component "payments" }}
{{ include "evidentia.secretEnv" (dict "name" "STRIPE_SECRET_KEY" "secret" $v.stripe.existingSecret "key" $v.stripe.secretKeyKey) }}
{{ include "evidentia.secretEnv" (dict "name" "STRIPE_WEBHOOK_SECRET" "secret" $v.stripe.existingSecret "key" $v.stripe.webhookSecretKey) }}
- name: STRIPE_API_BASE
  value: {{ $v.stripe.apiBase | quote }}
{{- else if eq .component "evidence" }}
{{ include "evidentia.env.s3" .root | trim }}
- name: ACCOUNTS_GRPC_URL
  value: {{ printf "http://%s:%d" (include "evidentia.componentName" (dict "root" .root "component" "accounts")) (int $v.services.accounts.port) | quote }}
{{ include "evidentia.secretEnv" (dict "name" "EVIDENCE_RECEIPT_KEY" "secret" $v.receipts.existingSecret "key" $v.receipts.signingKeyKey) }}
- name: EVIDENCE_RECEIPT_RETIRED_KEYS
  value: {{ $v.receipts.retiredPublicKeys | quote }}
{{- with $v.receipts.timestamps }}
{{- if .url }}
- name: EVIDENCE_TSA_URL
  value: {{ .url | quote }}
{{ include "evidentia.secretEnv" (dict "name" "EVIDENCE_TSA_CA" "secret" (required "receipts.timestamps.caSecret is required with receipts.timestamps.url" .caSecret) "key" .caKey) }}
{{- end }}
{{- end }}
{{- else if eq .component "sharing" }}
{{ include "evidentia.env.messages" .root | trim }}
{{ include "evidentia.env.s3" .root | trim }}
{{ include "evidentia.secretEnv" (dict "name" "SHARING_LINK_SECRET" "secret" $v.auth.existingSecret "key" $v.auth.sharingLinkSecretKey) }}
{{ include "evidentia.secretEnv" (dict "name" "SHARING_RECEIPT_KEY" "secret" $v.receipts.existingSecret "key" $v.receipts.signingKeyKey) }}
- name: SHARING_RECEIPT_RETIRED_KEYS
  value: {{ $v.receipts.retiredPublicKeys | quote }}
{{ include "evidentia.secretEnv" (dict "name" "SHARING_C2PA_CERT_CHAIN" "secret" $v.c2pa.existingSecret "key" $v.c2pa.chainKey) }}
{{ include "evidentia.secretEnv" (dict "name" "SHARING_C2PA_KEY" "secret" $v.c2pa.existingSecret "key" $v.c2pa.privateKeyKey) }}
- name: SHARING_C2PA_ALG
  value: {{ $v.c2pa.alg | quote }}
- name: EVIDENCE_GRPC_URL
  value: {{ printf "http://%s:%d" (include "evidentia.componentName" (dict "root" .root "component" "evidence")) (int $v.services.evidence.port) | quote }}
- name: PAYMENTS_GRPC_URL
  value: {{ printf "http://%s:%d" (include "evidentia.componentName" (dict "root" .root "component" "payments")) (int $v.services.payments.port) | quote }}
- name: SHARING_WORK_DIR
  value: /tmp/sharing
- name: SHARING_FFMPEG
  value: /usr/bin/ffmpeg
{{- else if eq .component "referrals" }}
{{ include "evidentia.env.messages" .root | trim }}
{{- end }}
{{- range $name, $value := .settings.env }}
- name: {{ $name }}
  value: {{ $value | toString | quote }}
{{- end }}
{{- end -}}

{{/* Everything the gateway reads. Argument: dict "root" $ "component" "gateway" "settings" s. */}}
{{- define "evidentia.env.gateway" -}}
{{- $root := .root -}}
{{- $v := .root.Values -}}
- name: HTTP_LISTEN_ADDR
  value: "0.0.0.0:8081"
- name: WEB_DIST_DIR
  value: /app/web/dist
{{- range $svc := include "evidentia.grpcServices" $root | fromJsonArray }}
- name: {{ printf "%s_GRPC_URL" (upper $svc) }}
  value: {{ printf "http://%s:%d" (include "evidentia.componentName" (dict "root" $root "component" $svc)) (int (index $v.services $svc).port) | quote }}
{{- end }}
{{ include "evidentia.secretEnv" (dict "name" "JWT_SECRET" "secret" $v.auth.existingSecret "key" $v.auth.jwtSecretKey) }}
- name: STRIPE_PUBLISHABLE_KEY
  value: {{ .settings.stripePublishableKey | quote }}
- name: STRIPE_JS_URL
  value: {{ .settings.stripeJsUrl | quote }}
- name: CSP_CONNECT_SRC_EXTRA
  value: {{ .settings.cspConnectSrcExtra | quote }}
{{ include "evidentia.env.redis" .root | trim }}
{{ include "evidentia.env.telemetry" . | trim }}
{{- range $name, $value := .settings.env }}
- name: {{ $name }}
  value: {{ $value | toString | quote }}
{{- end }}
{{- end -}}
