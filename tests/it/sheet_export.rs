//! Each export of the source documents' example, in both languages, as inline snapshots.

use crate::sheet_support::example;
use modality_advisor::domain::export::{to_csv, to_json, to_markdown, to_tsv};
use modality_advisor::domain::Lang;

#[test]
fn markdown_en() {
    insta::assert_snapshot!(to_markdown(&example(Lang::En), Lang::En), @r#"
        # send\_reservation\_mail (send reservation confirmation mail)

        Outcome: **Asynchronous: enqueue a job** (`async-enqueue`)

        Why:

        - It starts from a request or an event (or must not wait for a bulk run), so it is handled one request at a time.
        - Nobody needs the result on the spot, so the request is queued as a job and the response returns at once.

        | Item | What to write | This job's value |
        |---|---|---|
        | Job name | name in code and human name | send\_reservation\_mail (send reservation confirmation mail) |
        | Trigger | which operation or data creates the job | the user confirms a reservation |
        | Arguments | values passed to the job | reservation id |
        | Max attempts | how many runs at most, including the first | 5 |
        | Wait strategy | how the interval before a retry grows, and its cap | exponential backoff (first 10 s, cap 10 min) + full jitter |
        | Timeout | time allowed for one attempt (and the lease) | 30 s (lease / visibility timeout 1 min) |
        | Idempotency key | what it is composed of | reservation id + confirm-mail |
        | Retryable errors | errors treated as transient | connection error, response timeout, "temporarily busy" answers |
        | Non-retryable errors | errors that dead-letter the job at once | malformed address, reservation already cancelled |
        | Dead-letter destination | where jobs that used up their attempts stay | the jobs table, kept with status dead |
        | Notify | who learns of a dead job, and how | post to the ops chat: job name, reservation id, last error (acted on within 24 h) |
        | Re-run procedure | how a dead job is put back | set status to queued and attempts to 0 |
        | Retention | how long done and dead jobs are kept | done: 30 days; dead: until handled (done jobs keep the last error) |
        | Acceptable wait | the longest the user can be made to wait for the effect | 10 min |
        | Business key | what identifies the real-world event (the basis of the idempotency key) | reservation id |
        | Retry window | how long retries can last: the waits' total (min / expected / max) and the attempts' longest time | min 0 s · expected 1.3 min · max 2.5 min, plus up to 5 × 30 s of attempts |
        | Who retries | other layers that retry the same work (queue, framework, SDK) and the total calls | this job only: at most 5 calls |
        | Queue retention | how long the queue keeps a message before deleting it | not stated |
        | Arrival rate | jobs per second, minute or hour: the mean, and the peak it is sized for | not stated |
        | Burst | jobs at once, or a rate for a while, on top of the arrivals | not stated |
        | Handler time | how long one run takes: median and 95th percentile, or fixed | not stated |
        | Transient failure rate | the share of attempts that fail and are retried (retries add load) | not stated |
        | Downstream limits | its rate limit with its burst allowance, calls at once, an exclusive lock | not stated |
        | Our rate limiter | the rate the workers pace themselves to, all together (BullMQ limiter, Celery rate\_limit, Cloud Tasks maxDispatchesPerSecond, Temporal task-queue rate) | not stated |
        | Targets | the wait in the queue at p95, and how soon a burst is drained | wait p95 ≤ 10 min (from the acceptable wait) |
        | Workers | worker processes × jobs each runs at once | not stated |
        | Capacity | computed: offered load with retries, utilisation, throughput ceiling and its bottleneck, burst drain time (analytic; the simulation is the reference) | not sized yet: needs the arrival rate (or a burst), the handler's time |

        ## Decision path

        1. Is the trigger a point in time, and is it fine to process the work together in bulk? — no
        2. Does the user need the result right there, in the response? — no

        ```mermaid
        flowchart TD
            start([One process]) --> timeTriggered{Triggered by the clock,<br>fine to process in bulk?}
            timeTriggered -- yes --> batch[Scheduled batch]
            timeTriggered -- no --> needsResultNow{User needs the result<br>in the response?}
            needsResultNow -- no --> asyncEnqueue[Async:<br>enqueue a job]
            needsResultNow -- yes --> withinSeconds{Done within<br>a few seconds?}
            withinSeconds -- no --> asyncTicket[Async with a ticket:<br>answer with a number,<br>result later]
            withinSeconds -- yes --> externalCall{Calls an<br>external system?}
            externalCall -- no --> sync[Stay synchronous]
            externalCall -- yes --> keepAcceptingWhenDown{Keep accepting<br>while it is down?}
            keepAcceptingWhenDown -- yes --> asyncTicket
            keepAcceptingWhenDown -- no --> syncTimeout[Synchronous with<br>a timeout on the call]
            classDef onPath fill:#fde68a,stroke:#b45309,stroke-width:3px
            class start,timeTriggered,needsResultNow,asyncEnqueue onPath
        ```

        ## Findings

        No findings.
        "#);
}

#[test]
fn markdown_ja() {
    insta::assert_snapshot!(to_markdown(&example(Lang::Ja), Lang::Ja), @r#"
        # send\_reservation\_mail（予約確定メール送信）

        判断： **非同期：ジョブをキューに登録** (`async-enqueue`)

        理由：

        - 依頼やイベントが起点（またはまとめ処理を待てない）なので、1件ずつ扱います。
        - その場で結果が要らないので、ジョブとしてキューに登録し、応答はすぐ返します。

        | 項目 | 記入内容 | このジョブの値 |
        |---|---|---|
        | ジョブ名 | コード上の名前と日本語名 | send\_reservation\_mail（予約確定メール送信） |
        | 起点 | どの操作・どのデータの発生で登録されるか | 利用者が予約を確定したとき |
        | 引数 | ジョブに渡す値 | 予約ID |
        | 最大試行回数 | 初回を含めて何回まで実行するか | 5回 |
        | 待ち時間 | 再試行までの間隔の方式と上限 | 指数バックオフ（初回10秒、上限10分）＋ジッター（フル） |
        | タイムアウト | 1回の実行に許す時間（とリース） | 30秒（リース／可視性タイムアウト 1分） |
        | 冪等キー | 何を組み合わせて作るか | 予約ID＋confirm-mail |
        | 再試行するエラー | 一時的とみなすエラーの種類 | 接続エラー、応答の時間切れ、一時的な混雑を示す応答 |
        | 再試行しないエラー | すぐ退避するエラーの種類 | 宛先アドレスの形式エラー、予約が取り消し済み |
        | エラー時の退避先 | 回数を使い切ったジョブをどこに残すか | jobsテーブルのstatusをdeadにして残す |
        | 通知先 | 退避されたときに誰へ何で知らせるか | 運用担当のチャットにジョブ名・予約ID・最後のエラーを投稿（24時間以内に対応） |
        | 再実行の手順 | 退避したジョブをどう戻すか | statusをqueued、attemptsを0に戻す |
        | 保存期間 | 完了・退避したジョブをいつまで残すか | doneは30日、deadは対応が終わるまで（doneでもlast\_errorを残す） |
        | 許容できる待ち時間 | 利用者に待ってもらえる最長の時間 | 10分 |
        | 業務キー | 現実の出来事を識別する値（冪等キーの元） | 予約ID |
        | 再試行の期間 | 再試行が続き得る時間：待ち時間の合計（最短・期待値・最長）と実行時間の最長 | 最短 0秒・期待値 1.3分・最長 2.5分（ほかに実行時間が最大 5 × 30秒） |
        | 再試行する層 | 同じ処理を再試行する他の層（キュー・フレームワーク・SDK）と呼び出しの合計 | このジョブのみ：呼び出しは最大5回 |
        | キューの保持期間 | キューがメッセージを削除するまで保持する時間 | 未記入 |
        | 到着率 | 1秒・1分・1時間あたりのジョブ数。平均と、見積もりに使うピーク | 未記入 |
        | バースト | 到着に上乗せされる、同時のジョブ数か、一定時間続く到着率 | 未記入 |
        | 処理時間 | 1回の実行にかかる時間。中央値と95パーセンタイル、または固定 | 未記入 |
        | 一時的な失敗率 | 失敗して再試行される試行の割合（再試行は負荷を増やします） | 未記入 |
        | 呼び出し先の制限 | レート制限とバースト許容、同時呼び出し数、排他ロック | 未記入 |
        | 自前のレート制限 | ワーカー全体で抑える呼び出しの割合（BullMQのlimiter、Celeryのrate\_limit、Cloud TasksのmaxDispatchesPerSecond、Temporalのタスクキューのレート） | 未記入 |
        | 目標 | キューでの待ちのp95と、バーストを処理し終えるまでの時間 | 待ちのp95 ≤ 10分（許容できる待ち時間から） |
        | ワーカー | ワーカープロセス数 × 各プロセスの同時実行数 | 未記入 |
        | キャパシティ | 計算値：再試行込みの提供負荷、稼働率、スループット上限とボトルネック、バーストの処理時間（解析。シミュレーションが基準） | 未見積もり：到着率（またはバースト）、処理時間が必要です |

        ## 判断の経路

        1. 起点は時刻で、まとめて処理してよいですか？ — いいえ
        2. 利用者は結果を、応答のその場で必要としますか？ — いいえ

        ```mermaid
        flowchart TD
            start([プロセスを1つ]) --> timeTriggered{時刻が起点で<br>まとめて処理してよい？}
            timeTriggered -- はい --> batch[定期バッチ]
            timeTriggered -- いいえ --> needsResultNow{結果を応答の<br>その場で必要とする？}
            needsResultNow -- いいえ --> asyncEnqueue[非同期<br>ジョブを登録]
            needsResultNow -- はい --> withinSeconds{数秒以内に終わる？}
            withinSeconds -- いいえ --> asyncTicket[非同期・受付番号<br>番号をすぐ返し<br>結果は後で確認]
            withinSeconds -- はい --> externalCall{外部システムを<br>呼び出す？}
            externalCall -- いいえ --> sync[同期のまま]
            externalCall -- はい --> keepAcceptingWhenDown{外部が止まっても<br>受付を続ける？}
            keepAcceptingWhenDown -- はい --> asyncTicket
            keepAcceptingWhenDown -- いいえ --> syncTimeout[同期<br>呼び出しに<br>タイムアウトを設定]
            classDef onPath fill:#fde68a,stroke:#b45309,stroke-width:3px
            class start,timeTriggered,needsResultNow,asyncEnqueue onPath
        ```

        ## 指摘

        指摘はありません。
        "#);
}

#[test]
fn tsv_en() {
    insta::assert_snapshot!(to_tsv(&example(Lang::En), Lang::En), @r#"
        Item	What to write	This job's value
        Job name	name in code and human name	send_reservation_mail (send reservation confirmation mail)
        Trigger	which operation or data creates the job	the user confirms a reservation
        Arguments	values passed to the job	reservation id
        Max attempts	how many runs at most, including the first	5
        Wait strategy	how the interval before a retry grows, and its cap	exponential backoff (first 10 s, cap 10 min) + full jitter
        Timeout	time allowed for one attempt (and the lease)	30 s (lease / visibility timeout 1 min)
        Idempotency key	what it is composed of	reservation id + confirm-mail
        Retryable errors	errors treated as transient	"connection error, response timeout, ""temporarily busy"" answers"
        Non-retryable errors	errors that dead-letter the job at once	malformed address, reservation already cancelled
        Dead-letter destination	where jobs that used up their attempts stay	the jobs table, kept with status dead
        Notify	who learns of a dead job, and how	post to the ops chat: job name, reservation id, last error (acted on within 24 h)
        Re-run procedure	how a dead job is put back	set status to queued and attempts to 0
        Retention	how long done and dead jobs are kept	done: 30 days; dead: until handled (done jobs keep the last error)
        Acceptable wait	the longest the user can be made to wait for the effect	10 min
        Business key	what identifies the real-world event (the basis of the idempotency key)	reservation id
        Retry window	how long retries can last: the waits' total (min / expected / max) and the attempts' longest time	min 0 s · expected 1.3 min · max 2.5 min, plus up to 5 × 30 s of attempts
        Who retries	other layers that retry the same work (queue, framework, SDK) and the total calls	this job only: at most 5 calls
        Queue retention	how long the queue keeps a message before deleting it	not stated
        Arrival rate	jobs per second, minute or hour: the mean, and the peak it is sized for	not stated
        Burst	jobs at once, or a rate for a while, on top of the arrivals	not stated
        Handler time	how long one run takes: median and 95th percentile, or fixed	not stated
        Transient failure rate	the share of attempts that fail and are retried (retries add load)	not stated
        Downstream limits	its rate limit with its burst allowance, calls at once, an exclusive lock	not stated
        Our rate limiter	the rate the workers pace themselves to, all together (BullMQ limiter, Celery rate_limit, Cloud Tasks maxDispatchesPerSecond, Temporal task-queue rate)	not stated
        Targets	the wait in the queue at p95, and how soon a burst is drained	wait p95 ≤ 10 min (from the acceptable wait)
        Workers	worker processes × jobs each runs at once	not stated
        Capacity	computed: offered load with retries, utilisation, throughput ceiling and its bottleneck, burst drain time (analytic; the simulation is the reference)	not sized yet: needs the arrival rate (or a burst), the handler's time
        Outcome	the decision this sheet comes from	Asynchronous: enqueue a job (async-enqueue)
        Why	one reason per answer on the decision path	"It starts from a request or an event (or must not wait for a bulk run), so it is handled one request at a time.
        Nobody needs the result on the spot, so the request is queued as a job and the response returns at once."
        Decision path	the questions answered, in order	"Is the trigger a point in time, and is it fine to process the work together in bulk? — no
        Does the user need the result right there, in the response? — no"
        "#);
}

#[test]
fn tsv_ja() {
    insta::assert_snapshot!(to_tsv(&example(Lang::Ja), Lang::Ja), @r#"
        項目	記入内容	このジョブの値
        ジョブ名	コード上の名前と日本語名	send_reservation_mail（予約確定メール送信）
        起点	どの操作・どのデータの発生で登録されるか	利用者が予約を確定したとき
        引数	ジョブに渡す値	予約ID
        最大試行回数	初回を含めて何回まで実行するか	5回
        待ち時間	再試行までの間隔の方式と上限	指数バックオフ（初回10秒、上限10分）＋ジッター（フル）
        タイムアウト	1回の実行に許す時間（とリース）	30秒（リース／可視性タイムアウト 1分）
        冪等キー	何を組み合わせて作るか	予約ID＋confirm-mail
        再試行するエラー	一時的とみなすエラーの種類	接続エラー、応答の時間切れ、一時的な混雑を示す応答
        再試行しないエラー	すぐ退避するエラーの種類	宛先アドレスの形式エラー、予約が取り消し済み
        エラー時の退避先	回数を使い切ったジョブをどこに残すか	jobsテーブルのstatusをdeadにして残す
        通知先	退避されたときに誰へ何で知らせるか	運用担当のチャットにジョブ名・予約ID・最後のエラーを投稿（24時間以内に対応）
        再実行の手順	退避したジョブをどう戻すか	statusをqueued、attemptsを0に戻す
        保存期間	完了・退避したジョブをいつまで残すか	doneは30日、deadは対応が終わるまで（doneでもlast_errorを残す）
        許容できる待ち時間	利用者に待ってもらえる最長の時間	10分
        業務キー	現実の出来事を識別する値（冪等キーの元）	予約ID
        再試行の期間	再試行が続き得る時間：待ち時間の合計（最短・期待値・最長）と実行時間の最長	最短 0秒・期待値 1.3分・最長 2.5分（ほかに実行時間が最大 5 × 30秒）
        再試行する層	同じ処理を再試行する他の層（キュー・フレームワーク・SDK）と呼び出しの合計	このジョブのみ：呼び出しは最大5回
        キューの保持期間	キューがメッセージを削除するまで保持する時間	未記入
        到着率	1秒・1分・1時間あたりのジョブ数。平均と、見積もりに使うピーク	未記入
        バースト	到着に上乗せされる、同時のジョブ数か、一定時間続く到着率	未記入
        処理時間	1回の実行にかかる時間。中央値と95パーセンタイル、または固定	未記入
        一時的な失敗率	失敗して再試行される試行の割合（再試行は負荷を増やします）	未記入
        呼び出し先の制限	レート制限とバースト許容、同時呼び出し数、排他ロック	未記入
        自前のレート制限	ワーカー全体で抑える呼び出しの割合（BullMQのlimiter、Celeryのrate_limit、Cloud TasksのmaxDispatchesPerSecond、Temporalのタスクキューのレート）	未記入
        目標	キューでの待ちのp95と、バーストを処理し終えるまでの時間	待ちのp95 ≤ 10分（許容できる待ち時間から）
        ワーカー	ワーカープロセス数 × 各プロセスの同時実行数	未記入
        キャパシティ	計算値：再試行込みの提供負荷、稼働率、スループット上限とボトルネック、バーストの処理時間（解析。シミュレーションが基準）	未見積もり：到着率（またはバースト）、処理時間が必要です
        判断	この定義書の元になった判断	非同期：ジョブをキューに登録 (async-enqueue)
        理由	判断の経路の回答ごとの理由	"依頼やイベントが起点（またはまとめ処理を待てない）なので、1件ずつ扱います。
        その場で結果が要らないので、ジョブとしてキューに登録し、応答はすぐ返します。"
        判断の経路	答えた質問（順に）	"起点は時刻で、まとめて処理してよいですか？ — いいえ
        利用者は結果を、応答のその場で必要としますか？ — いいえ"
        "#);
}

/// CRLF shown as `␍` so the snapshot shows the line ends; the BOM as `<BOM>`.
fn visible(s: &str) -> String {
    s.replace('\u{FEFF}', "<BOM>").replace("\r\n", "␍\n")
}

#[test]
fn csv_en() {
    insta::assert_snapshot!(visible(&to_csv(&example(Lang::En), Lang::En, false)), @r#"
        Item,What to write,This job's value␍
        Job name,name in code and human name,send_reservation_mail (send reservation confirmation mail)␍
        Trigger,which operation or data creates the job,the user confirms a reservation␍
        Arguments,values passed to the job,reservation id␍
        Max attempts,"how many runs at most, including the first",5␍
        Wait strategy,"how the interval before a retry grows, and its cap","exponential backoff (first 10 s, cap 10 min) + full jitter"␍
        Timeout,time allowed for one attempt (and the lease),30 s (lease / visibility timeout 1 min)␍
        Idempotency key,what it is composed of,reservation id + confirm-mail␍
        Retryable errors,errors treated as transient,"connection error, response timeout, ""temporarily busy"" answers"␍
        Non-retryable errors,errors that dead-letter the job at once,"malformed address, reservation already cancelled"␍
        Dead-letter destination,where jobs that used up their attempts stay,"the jobs table, kept with status dead"␍
        Notify,"who learns of a dead job, and how","post to the ops chat: job name, reservation id, last error (acted on within 24 h)"␍
        Re-run procedure,how a dead job is put back,set status to queued and attempts to 0␍
        Retention,how long done and dead jobs are kept,done: 30 days; dead: until handled (done jobs keep the last error)␍
        Acceptable wait,the longest the user can be made to wait for the effect,10 min␍
        Business key,what identifies the real-world event (the basis of the idempotency key),reservation id␍
        Retry window,how long retries can last: the waits' total (min / expected / max) and the attempts' longest time,"min 0 s · expected 1.3 min · max 2.5 min, plus up to 5 × 30 s of attempts"␍
        Who retries,"other layers that retry the same work (queue, framework, SDK) and the total calls",this job only: at most 5 calls␍
        Queue retention,how long the queue keeps a message before deleting it,not stated␍
        Arrival rate,"jobs per second, minute or hour: the mean, and the peak it is sized for",not stated␍
        Burst,"jobs at once, or a rate for a while, on top of the arrivals",not stated␍
        Handler time,"how long one run takes: median and 95th percentile, or fixed",not stated␍
        Transient failure rate,the share of attempts that fail and are retried (retries add load),not stated␍
        Downstream limits,"its rate limit with its burst allowance, calls at once, an exclusive lock",not stated␍
        Our rate limiter,"the rate the workers pace themselves to, all together (BullMQ limiter, Celery rate_limit, Cloud Tasks maxDispatchesPerSecond, Temporal task-queue rate)",not stated␍
        Targets,"the wait in the queue at p95, and how soon a burst is drained",wait p95 ≤ 10 min (from the acceptable wait)␍
        Workers,worker processes × jobs each runs at once,not stated␍
        Capacity,"computed: offered load with retries, utilisation, throughput ceiling and its bottleneck, burst drain time (analytic; the simulation is the reference)","not sized yet: needs the arrival rate (or a burst), the handler's time"␍
        Outcome,the decision this sheet comes from,Asynchronous: enqueue a job (async-enqueue)␍
        Why,one reason per answer on the decision path,"It starts from a request or an event (or must not wait for a bulk run), so it is handled one request at a time.
        Nobody needs the result on the spot, so the request is queued as a job and the response returns at once."␍
        Decision path,"the questions answered, in order","Is the trigger a point in time, and is it fine to process the work together in bulk? — no
        Does the user need the result right there, in the response? — no"␍
        "#);
}

#[test]
fn csv_ja_with_bom() {
    insta::assert_snapshot!(visible(&to_csv(&example(Lang::Ja), Lang::Ja, true)), @r#"
        <BOM>項目,記入内容,このジョブの値␍
        ジョブ名,コード上の名前と日本語名,send_reservation_mail（予約確定メール送信）␍
        起点,どの操作・どのデータの発生で登録されるか,利用者が予約を確定したとき␍
        引数,ジョブに渡す値,予約ID␍
        最大試行回数,初回を含めて何回まで実行するか,5回␍
        待ち時間,再試行までの間隔の方式と上限,指数バックオフ（初回10秒、上限10分）＋ジッター（フル）␍
        タイムアウト,1回の実行に許す時間（とリース）,30秒（リース／可視性タイムアウト 1分）␍
        冪等キー,何を組み合わせて作るか,予約ID＋confirm-mail␍
        再試行するエラー,一時的とみなすエラーの種類,接続エラー、応答の時間切れ、一時的な混雑を示す応答␍
        再試行しないエラー,すぐ退避するエラーの種類,宛先アドレスの形式エラー、予約が取り消し済み␍
        エラー時の退避先,回数を使い切ったジョブをどこに残すか,jobsテーブルのstatusをdeadにして残す␍
        通知先,退避されたときに誰へ何で知らせるか,運用担当のチャットにジョブ名・予約ID・最後のエラーを投稿（24時間以内に対応）␍
        再実行の手順,退避したジョブをどう戻すか,statusをqueued、attemptsを0に戻す␍
        保存期間,完了・退避したジョブをいつまで残すか,doneは30日、deadは対応が終わるまで（doneでもlast_errorを残す）␍
        許容できる待ち時間,利用者に待ってもらえる最長の時間,10分␍
        業務キー,現実の出来事を識別する値（冪等キーの元）,予約ID␍
        再試行の期間,再試行が続き得る時間：待ち時間の合計（最短・期待値・最長）と実行時間の最長,最短 0秒・期待値 1.3分・最長 2.5分（ほかに実行時間が最大 5 × 30秒）␍
        再試行する層,同じ処理を再試行する他の層（キュー・フレームワーク・SDK）と呼び出しの合計,このジョブのみ：呼び出しは最大5回␍
        キューの保持期間,キューがメッセージを削除するまで保持する時間,未記入␍
        到着率,1秒・1分・1時間あたりのジョブ数。平均と、見積もりに使うピーク,未記入␍
        バースト,到着に上乗せされる、同時のジョブ数か、一定時間続く到着率,未記入␍
        処理時間,1回の実行にかかる時間。中央値と95パーセンタイル、または固定,未記入␍
        一時的な失敗率,失敗して再試行される試行の割合（再試行は負荷を増やします）,未記入␍
        呼び出し先の制限,レート制限とバースト許容、同時呼び出し数、排他ロック,未記入␍
        自前のレート制限,ワーカー全体で抑える呼び出しの割合（BullMQのlimiter、Celeryのrate_limit、Cloud TasksのmaxDispatchesPerSecond、Temporalのタスクキューのレート）,未記入␍
        目標,キューでの待ちのp95と、バーストを処理し終えるまでの時間,待ちのp95 ≤ 10分（許容できる待ち時間から）␍
        ワーカー,ワーカープロセス数 × 各プロセスの同時実行数,未記入␍
        キャパシティ,計算値：再試行込みの提供負荷、稼働率、スループット上限とボトルネック、バーストの処理時間（解析。シミュレーションが基準）,未見積もり：到着率（またはバースト）、処理時間が必要です␍
        判断,この定義書の元になった判断,非同期：ジョブをキューに登録 (async-enqueue)␍
        理由,判断の経路の回答ごとの理由,"依頼やイベントが起点（またはまとめ処理を待てない）なので、1件ずつ扱います。
        その場で結果が要らないので、ジョブとしてキューに登録し、応答はすぐ返します。"␍
        判断の経路,答えた質問（順に）,"起点は時刻で、まとめて処理してよいですか？ — いいえ
        利用者は結果を、応答のその場で必要としますか？ — いいえ"␍
        "#);
}

#[test]
fn csv_bom_is_the_only_difference() {
    for lang in Lang::ALL {
        let sheet = example(lang);
        let plain = to_csv(&sheet, lang, false);
        assert!(!plain.starts_with('\u{FEFF}'));
        assert_eq!(to_csv(&sheet, lang, true), format!("\u{FEFF}{plain}"));
        assert_eq!(
            to_csv(&sheet, lang, true).as_bytes()[..3],
            [0xEF, 0xBB, 0xBF]
        );
    }
}

#[test]
fn json_en() {
    insta::assert_snapshot!(to_json(&example(Lang::En)), @r#"
        {
          "schema_version": 3,
          "lang": "en",
          "process": {
            "process_name": "send reservation confirmation mail",
            "code_name": "send_reservation_mail",
            "trigger": "the user confirms a reservation",
            "arguments": [
              "reservation id"
            ],
            "business_key": "reservation id",
            "key_purpose": "confirm-mail",
            "permanent_errors": [
              "malformed address",
              "reservation already cancelled"
            ],
            "acceptable_wait_ms": 600000
          },
          "decision": {
            "answers": [
              {
                "question": "time-triggered",
                "answer": false
              },
              {
                "question": "needs-result-now",
                "answer": false
              }
            ],
            "outcome": "async-enqueue"
          },
          "retry": {
            "max_attempts": 5,
            "backoff": {
              "kind": "exponential",
              "base_ms": 10000,
              "cap_ms": 600000,
              "jitter": "full"
            },
            "attempt_timeout_ms": 30000,
            "lease_ms": 60000,
            "idempotency_key": "reservation id + confirm-mail",
            "retryable_errors": [
              "connection error",
              "response timeout",
              "\"temporarily busy\" answers"
            ],
            "non_retryable_errors": [
              "malformed address",
              "reservation already cancelled"
            ]
          },
          "failure": {
            "dead_letter": "the jobs table, kept with status dead",
            "notify": "post to the ops chat: job name, reservation id, last error",
            "notice_within_h": 24,
            "rerun": "set status to queued and attempts to 0",
            "retention": {
              "done": {
                "days": 30
              },
              "dead": "until-handled"
            },
            "last_error_on_done": "keep"
          },
          "ticket": null,
          "batch": null,
          "sync": null,
          "load": {}
        }
        "#);
}

#[test]
fn json_ja() {
    insta::assert_snapshot!(to_json(&example(Lang::Ja)), @r#"
        {
          "schema_version": 3,
          "lang": "ja",
          "process": {
            "process_name": "予約確定メール送信",
            "code_name": "send_reservation_mail",
            "trigger": "利用者が予約を確定したとき",
            "arguments": [
              "予約ID"
            ],
            "business_key": "予約ID",
            "key_purpose": "confirm-mail",
            "permanent_errors": [
              "宛先アドレスの形式エラー",
              "予約が取り消し済み"
            ],
            "acceptable_wait_ms": 600000
          },
          "decision": {
            "answers": [
              {
                "question": "time-triggered",
                "answer": false
              },
              {
                "question": "needs-result-now",
                "answer": false
              }
            ],
            "outcome": "async-enqueue"
          },
          "retry": {
            "max_attempts": 5,
            "backoff": {
              "kind": "exponential",
              "base_ms": 10000,
              "cap_ms": 600000,
              "jitter": "full"
            },
            "attempt_timeout_ms": 30000,
            "lease_ms": 60000,
            "idempotency_key": "予約ID＋confirm-mail",
            "retryable_errors": [
              "接続エラー",
              "応答の時間切れ",
              "一時的な混雑を示す応答"
            ],
            "non_retryable_errors": [
              "宛先アドレスの形式エラー",
              "予約が取り消し済み"
            ]
          },
          "failure": {
            "dead_letter": "jobsテーブルのstatusをdeadにして残す",
            "notify": "運用担当のチャットにジョブ名・予約ID・最後のエラーを投稿",
            "notice_within_h": 24,
            "rerun": "statusをqueued、attemptsを0に戻す",
            "retention": {
              "done": {
                "days": 30
              },
              "dead": "until-handled"
            },
            "last_error_on_done": "keep"
          },
          "ticket": null,
          "batch": null,
          "sync": null,
          "load": {}
        }
        "#);
}

#[test]
fn markdown_of_other_outcomes_marks_their_path_and_findings() {
    use modality_advisor::domain::export::markdown::mermaid;
    use modality_advisor::domain::sheet::prefill::prefill;
    use modality_advisor::domain::sheet::Decision;
    use modality_advisor::domain::{Answers, QuestionId};
    let answers = Answers::new()
        .with(QuestionId::TimeTriggered, false)
        .with(QuestionId::NeedsResultNow, true)
        .with(QuestionId::WithinSeconds, true)
        .with(QuestionId::ExternalCall, true)
        .with(QuestionId::KeepAcceptingWhenDown, false);
    let mut facts = example(Lang::En).process;
    facts.acceptable_wait_ms = Some(1_000);
    let sheet = prefill(
        facts,
        Decision::from_answers(&answers).expect("complete"),
        Lang::En,
    );
    let m = mermaid(&sheet, Lang::En);
    assert!(m.ends_with(
        "\n    class start,timeTriggered,needsResultNow,withinSeconds,externalCall,keepAcceptingWhenDown,syncTimeout onPath\n"
    ), "{m}");
    let md = to_markdown(&sheet, Lang::En);
    let tail = md
        .split("## Findings\n\n")
        .nth(1)
        .expect("a findings section");
    insta::assert_snapshot!(tail, @"- **warning** Call timeout: The call timeout (3 s) is longer than users can wait (1 s).");
    // The retry and failure rows are left out, named once under the table.
    assert!(!md.contains("| Max attempts |"), "{md}");
    assert_eq!(md.matches("does not apply").count(), 1, "{md}");
    assert!(md.contains("\nNot in this sheet — does not apply (synchronous: no queue, no job): Max attempts, Wait strategy, "), "{md}");
}

#[test]
fn every_path_node_exists_in_the_mermaid_source() {
    use modality_advisor::domain::diagram::{all_node_ids, mermaid_source};
    use modality_advisor::domain::export::markdown::mermaid_node_id;
    for lang in Lang::ALL {
        let src = mermaid_source(lang);
        for id in all_node_ids() {
            let node = mermaid_node_id(id);
            assert!(
                src.split(|c: char| !c.is_ascii_alphanumeric())
                    .any(|token| token == node),
                "{id} → {node} is not a node of the {lang:?} diagram"
            );
        }
    }
    assert_eq!(
        mermaid_node_id("keep-accepting-when-down"),
        "keepAcceptingWhenDown"
    );
    assert_eq!(mermaid_node_id("start"), "start");
}
