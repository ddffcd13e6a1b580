// The one message catalogue for answers to clients: the English text the code writes → its translations in
// the languages clients most often ask for (Rails' own wording for validation where it has one). Errors are
// written in English where they happen and translated at the edge (translate.ts); text missing here stays
// English. `%{name}` marks a value carried over from the English text.
export const LOCALES = ["en", "de", "fr", "es", "ja"] as const;
export type Locale = (typeof LOCALES)[number];
export type Translations = Record<Exclude<Locale, "en">, string>;

/** Whole messages (an error's text, or one part of "Validation failed: …"). */
export const MESSAGES: Record<string, Translations> = {
  "Record not found": { de: "Eintrag nicht gefunden", fr: "Enregistrement introuvable", es: "Registro no encontrado", ja: "レコードが見つかりません" },
  "Not Found": { de: "Nicht gefunden", fr: "Introuvable", es: "No encontrado", ja: "見つかりません" },
  "This action is not allowed": { de: "Diese Aktion ist nicht erlaubt", fr: "Cette action n'est pas autorisée", es: "Esta acción no está permitida", ja: "この操作は許可されていません" },
  "This action is outside the authorized scopes": {
    de: "Diese Aktion liegt außerhalb der erlaubten Bereiche",
    fr: "Cette action dépasse les autorisations accordées",
    es: "Esta acción está fuera de los permisos autorizados",
    ja: "この操作は許可された範囲外です",
  },
  "The access token is invalid": { de: "Das Zugriffstoken ist ungültig", fr: "Le jeton d'accès n'est pas valide", es: "El token de acceso no es válido", ja: "アクセストークンが無効です" },
  "This method requires an authenticated user": {
    de: "Diese Methode erfordert einen angemeldeten Benutzer",
    fr: "Cette méthode nécessite un utilisateur authentifié",
    es: "Este método requiere un usuario autenticado",
    ja: "このメソッドにはログインしたユーザーが必要です",
  },
  "Your login is currently disabled": { de: "Dein Zugang ist derzeit deaktiviert", fr: "Votre connexion est actuellement désactivée", es: "Tu inicio de sesión está deshabilitado", ja: "ログインは現在無効になっています" },
  "Your login is currently pending approval": {
    de: "Dein Zugang wartet noch auf Freigabe",
    fr: "Votre connexion est en attente d'approbation",
    es: "Tu inicio de sesión está pendiente de aprobación",
    ja: "ログインは承認待ちです",
  },
  "Your login is missing a confirmed e-mail address": {
    de: "Deinem Zugang fehlt eine bestätigte E-Mail-Adresse",
    fr: "Votre connexion n'a pas d'adresse e-mail confirmée",
    es: "Tu inicio de sesión no tiene una dirección de correo confirmada",
    ja: "確認済みのメールアドレスがありません",
  },
  "Too many requests": { de: "Zu viele Anfragen", fr: "Trop de requêtes", es: "Demasiadas solicitudes", ja: "リクエストが多すぎます" },
  "Internal server error": { de: "Interner Serverfehler", fr: "Erreur interne du serveur", es: "Error interno del servidor", ja: "サーバー内部エラー" },
  "Error occurred while parsing request parameters": {
    de: "Beim Lesen der Anfrageparameter ist ein Fehler aufgetreten",
    fr: "Erreur lors de la lecture des paramètres de la requête",
    es: "Error al leer los parámetros de la solicitud",
    ja: "リクエストパラメータの解析中にエラーが発生しました",
  },
  "Reblog of a private status is not allowed": {
    de: "Private Beiträge können nicht geteilt werden",
    fr: "Un message privé ne peut pas être partagé",
    es: "No se puede impulsar una publicación privada",
    ja: "非公開の投稿はブーストできません",
  },
  "You have reached the maximum number of lists": {
    de: "Du hast die maximale Anzahl an Listen erreicht",
    fr: "Vous avez atteint le nombre maximal de listes",
    es: "Has alcanzado el número máximo de listas",
    ja: "リストの上限に達しました",
  },
  "You have already pinned the maximum number of posts": {
    de: "Du hast bereits die maximale Anzahl an Beiträgen angeheftet",
    fr: "Vous avez déjà épinglé le nombre maximal de messages",
    es: "Ya has fijado el número máximo de publicaciones",
    ja: "固定できる投稿数の上限に達しています",
  },
  "Media attachment is currently used by a status": {
    de: "Der Medienanhang wird gerade von einem Beitrag verwendet",
    fr: "Le média est actuellement utilisé par un message",
    es: "El archivo multimedia está siendo usado por una publicación",
    ja: "このメディアは投稿で使用中です",
  },
};

/** Rails' validation wording after an attribute's name ("Text can't be blank"). */
export const DESCRIPTIONS: Record<string, Translations> = {
  "can't be blank": { de: "muss ausgefüllt werden", fr: "doit être rempli(e)", es: "no puede estar en blanco", ja: "を入力してください" },
  "is invalid": { de: "ist nicht gültig", fr: "n'est pas valide", es: "no es válido", ja: "は不正な値です" },
  "is not included in the list": { de: "ist kein gültiger Wert", fr: "n'est pas inclus(e) dans la liste", es: "no está incluido en la lista", ja: "は一覧にありません" },
  "has already been taken": { de: "ist bereits vergeben", fr: "n'est pas disponible", es: "ya está en uso", ja: "はすでに存在します" },
  "must be accepted": { de: "muss akzeptiert werden", fr: "doit être accepté(e)", es: "debe ser aceptado", ja: "を受諾してください" },
  "is reserved": { de: "ist reserviert", fr: "est réservé", es: "está reservado", ja: "は予約されています" },
  "must exist": { de: "muss vorhanden sein", fr: "doit exister", es: "debe existir", ja: "を入力してください" },
  "content type is invalid": { de: "hat einen ungültigen Dateityp", fr: "a un type de contenu non valide", es: "tiene un tipo de contenido no válido", ja: "のファイル形式が不正です" },
  "is too long (maximum is %{count} characters)": {
    de: "ist zu lang (mehr als %{count} Zeichen)",
    fr: "est trop long (pas plus de %{count} caractères)",
    es: "es demasiado largo (%{count} caracteres máximo)",
    ja: "は%{count}文字以内で入力してください",
  },
  "character limit of %{count} exceeded": {
    de: "Zeichenlimit von %{count} überschritten",
    fr: "limite de %{count} caractères dépassée",
    es: "límite de %{count} caracteres superado",
    ja: "の上限%{count}文字を超えています",
  },
  "is too short (minimum is %{count} characters)": {
    de: "ist zu kurz (weniger als %{count} Zeichen)",
    fr: "est trop court (au moins %{count} caractères)",
    es: "es demasiado corto (%{count} caracteres mínimo)",
    ja: "は%{count}文字以上で入力してください",
  },
};

/** Attribute names as Rails humanises them ("display_name" → "Display name"). */
export const ATTRIBUTES: Record<string, Translations> = {
  Text: { de: "Text", fr: "Texte", es: "Texto", ja: "本文" },
  Username: { de: "Benutzername", fr: "Nom d'utilisateur", es: "Nombre de usuario", ja: "ユーザー名" },
  Email: { de: "E-Mail-Adresse", fr: "Adresse e-mail", es: "Correo electrónico", ja: "メールアドレス" },
  Password: { de: "Passwort", fr: "Mot de passe", es: "Contraseña", ja: "パスワード" },
  Agreement: { de: "Zustimmung", fr: "Accord", es: "Acuerdo", ja: "同意" },
  Locale: { de: "Sprache", fr: "Langue", es: "Idioma", ja: "言語" },
  Reason: { de: "Grund", fr: "Motif", es: "Motivo", ja: "理由" },
  "Display name": { de: "Anzeigename", fr: "Nom public", es: "Nombre para mostrar", ja: "表示名" },
  Note: { de: "Über mich", fr: "Biographie", es: "Biografía", ja: "自己紹介" },
  Fields: { de: "Zusatzfelder", fr: "Champs", es: "Campos", ja: "プロフィール補足情報" },
  Title: { de: "Titel", fr: "Titre", es: "Título", ja: "タイトル" },
  Domain: { de: "Domain", fr: "Domaine", es: "Dominio", ja: "ドメイン" },
  File: { de: "Datei", fr: "Fichier", es: "Archivo", ja: "ファイル" },
  Status: { de: "Beitrag", fr: "Message", es: "Publicación", ja: "投稿" },
  Type: { de: "Typ", fr: "Type", es: "Tipo", ja: "種類" },
  Thumbnail: { de: "Vorschaubild", fr: "Miniature", es: "Miniatura", ja: "サムネイル" },
  "Source privacy": { de: "Standard-Sichtbarkeit", fr: "Visibilité par défaut", es: "Visibilidad por defecto", ja: "既定の公開範囲" },
  "Source language": { de: "Standardsprache", fr: "Langue par défaut", es: "Idioma por defecto", ja: "既定の言語" },
  "Attribution domains": { de: "Zuschreibungs-Domains", fr: "Domaines d'attribution", es: "Dominios de atribución", ja: "帰属ドメイン" },
};

/** Messages with a value in them. */
export const TEMPLATES: Record<string, Translations> = {
  "Validation failed: %{errors}": {
    de: "Validierung fehlgeschlagen: %{errors}",
    fr: "La validation a échoué : %{errors}",
    es: "La validación falló: %{errors}",
    ja: "バリデーションに失敗しました: %{errors}",
  },
  "param is missing or the value is empty: %{param}": {
    de: "Parameter fehlt oder ist leer: %{param}",
    fr: "paramètre manquant ou vide : %{param}",
    es: "falta el parámetro o está vacío: %{param}",
    ja: "パラメータがないか空です: %{param}",
  },
  "Request body too large (the limit is %{count} bytes)": {
    de: "Anfrage zu groß (höchstens %{count} Bytes)",
    fr: "Corps de requête trop volumineux (limite : %{count} octets)",
    es: "Cuerpo de la solicitud demasiado grande (límite: %{count} bytes)",
    ja: "リクエストが大きすぎます (上限 %{count} バイト)",
  },
};
