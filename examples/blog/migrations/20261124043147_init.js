// Migration 20261124043147_init, written by `pipe migrate create` from the changes of the definitions.
// Portable: each database derives its statements from the previous snapshot to this one when it runs, in one
// transaction. To write steps by hand, export `up` and `down` (SQL lists or async functions of `{execute}`).
// On sqlite, up:
//   create table `tag` (`id` integer not null primary key autoincrement, `name` text not null);
//   create unique index `tag_name_unique` on `tag` (`name`);
//   create table `user` (`id` integer not null primary key autoincrement, `email` text not null, `username` text not null, `password` text not null, `bio` text null, `image` text null, `created_at` datetime not null default current_timestamp, `updated_at` datetime not null default current_timestamp);
//   create unique index `user_email_unique` on `user` (`email`);
//   create unique index `user_username_unique` on `user` (`username`);
//   create table `article` (`id` integer not null primary key autoincrement, `slug` text null, `title` text not null, `description` text not null, `body` text not null, `author_id` integer null, `created_at` datetime not null default current_timestamp, `updated_at` datetime not null default current_timestamp, constraint `article_author_id_foreign` foreign key(`author_id`) references `user`(`id`) on delete cascade on update cascade);
//   create unique index `article_slug_unique` on `article` (`slug`);
//   create index `article_author_id_index` on `article` (`author_id`);
//   create table `comment` (`id` integer not null primary key autoincrement, `body` text not null, `article_id` integer not null, `author_id` integer null, `created_at` datetime not null default current_timestamp, `updated_at` datetime not null default current_timestamp, constraint `comment_article_id_foreign` foreign key(`article_id`) references `article`(`id`) on delete cascade on update cascade, constraint `comment_author_id_foreign` foreign key(`author_id`) references `user`(`id`) on delete cascade on update cascade);
//   create index `comment_article_id_index` on `comment` (`article_id`);
//   create index `comment_author_id_index` on `comment` (`author_id`);
//   create table `article_tagList` (`article_id` integer not null, `tag_id` integer not null, constraint `article_tagList_article_id_foreign` foreign key(`article_id`) references `article`(`id`) on delete cascade on update cascade, constraint `article_tagList_tag_id_foreign` foreign key(`tag_id`) references `tag`(`id`) on delete cascade on update cascade, primary key (`article_id`, `tag_id`));
//   create index `article_tagList_article_id_index` on `article_tagList` (`article_id`);
//   create index `article_tagList_tag_id_index` on `article_tagList` (`tag_id`);
//   create table `article_favoritedBy` (`article_id` integer not null, `user_id` integer not null, constraint `article_favoritedBy_article_id_foreign` foreign key(`article_id`) references `article`(`id`) on delete cascade on update cascade, constraint `article_favoritedBy_user_id_foreign` foreign key(`user_id`) references `user`(`id`) on delete cascade on update cascade, primary key (`article_id`, `user_id`));
//   create index `article_favoritedBy_article_id_index` on `article_favoritedBy` (`article_id`);
//   create index `article_favoritedBy_user_id_index` on `article_favoritedBy` (`user_id`);
//   create table `user_followers` (`user_1_id` integer not null, `user_2_id` integer not null, constraint `user_followers_user_1_id_foreign` foreign key(`user_1_id`) references `user`(`id`) on delete cascade on update cascade, constraint `user_followers_user_2_id_foreign` foreign key(`user_2_id`) references `user`(`id`) on delete cascade on update cascade, primary key (`user_1_id`, `user_2_id`));
//   create index `user_followers_user_1_id_index` on `user_followers` (`user_1_id`);
//   create index `user_followers_user_2_id_index` on `user_followers` (`user_2_id`);
// down:
//   drop table if exists `tag`;
//   drop table if exists `user`;
//   drop table if exists `article`;
//   drop table if exists `comment`;
//   drop table if exists `article_tagList`;
//   drop table if exists `article_favoritedBy`;
//   drop table if exists `user_followers`;

export const snapshot = {
  "entities": [
    {
      "name": "article",
      "fields": {
        "slug": {
          "type": "string",
          "unique": true,
          "readOnly": true,
          "length": 300
        },
        "title": {
          "type": "string",
          "required": true,
          "length": 250
        },
        "description": {
          "type": "string",
          "required": true,
          "length": 500
        },
        "body": {
          "type": "text",
          "required": true
        }
      },
      "relations": {
        "author": {
          "kind": "many-to-one",
          "entity": "user",
          "from": "user",
          "onDelete": "cascade",
          "fields": [
            "username",
            "bio",
            "image",
            "following"
          ]
        },
        "tagList": {
          "kind": "many-to-many",
          "entity": "tag",
          "writable": true,
          "by": "name",
          "createMissing": true
        },
        "favoritedBy": {
          "kind": "many-to-many",
          "entity": "user"
        },
        "comments": {
          "kind": "one-to-many",
          "entity": "comment",
          "inverse": "article"
        }
      },
      "computed": {
        "favorited": {
          "viewerIn": "favoritedBy"
        },
        "favoritesCount": {
          "count": "favoritedBy"
        }
      },
      "timestamps": true
    },
    {
      "name": "comment",
      "fields": {
        "body": {
          "type": "text",
          "required": true
        }
      },
      "relations": {
        "article": {
          "kind": "many-to-one",
          "entity": "article",
          "required": true,
          "onDelete": "cascade"
        },
        "author": {
          "kind": "many-to-one",
          "entity": "user",
          "from": "user",
          "onDelete": "cascade",
          "fields": [
            "username",
            "bio",
            "image",
            "following"
          ]
        }
      },
      "timestamps": true
    },
    {
      "name": "tag",
      "fields": {
        "name": {
          "type": "string",
          "required": true,
          "unique": true,
          "length": 60
        }
      }
    },
    {
      "name": "user",
      "fields": {
        "email": {
          "type": "email",
          "required": true,
          "unique": true
        },
        "username": {
          "type": "string",
          "required": true,
          "unique": true,
          "length": 60
        },
        "password": {
          "type": "password",
          "required": true
        },
        "bio": {
          "type": "text"
        },
        "image": {
          "type": "string",
          "length": 500
        }
      },
      "relations": {
        "follows": {
          "kind": "many-to-many",
          "entity": "user",
          "inverse": "followers"
        },
        "followers": {
          "kind": "many-to-many",
          "entity": "user",
          "inverse": "follows"
        }
      },
      "computed": {
        "following": {
          "viewerIn": "followers"
        }
      },
      "timestamps": true
    }
  ]
}
